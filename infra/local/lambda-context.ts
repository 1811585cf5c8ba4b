import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The account id every local ARN carries (fauxqs uses the same one). */
export const LOCAL_ACCOUNT_ID = '000000000000';

export interface FunctionIdentity {
  /** e.g. `zapdesk-local-http-system`; shows in ARNs and log group names like the deployed function's. */
  functionName: string;
  /** The Lambda timeout: `getRemainingTimeInMillis()` counts down from it. */
  timeoutMs: number;
  region: string;
  memoryLimitMb?: number;
}

const ymd = (d: Date): string => d.toISOString().slice(0, 10).replaceAll('-', '/');

/** A Lambda context as the Node.js runtime hands it to a handler, for one invocation. */
export const createLambdaContext = (fn: FunctionIdentity): Context => {
  const deadline = Date.now() + fn.timeoutMs;
  const unsupported = (name: string) => () => {
    throw new Error(`context.${name}() is not supported: return a promise from the handler`);
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: fn.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${fn.region}:${LOCAL_ACCOUNT_ID}:function:${fn.functionName}`,
    memoryLimitInMB: String(fn.memoryLimitMb ?? 1024),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${fn.functionName}`,
    logStreamName: `${ymd(new Date())}/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
};

export class InvocationTimeout extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(`${functionName} timed out after ${timeoutMs} ms`);
    this.name = 'InvocationTimeout';
  }
}

/**
 * Runs one invocation with the function's timeout. In-process code cannot be frozen like a Lambda
 * sandbox, so a timed-out handler keeps running in the background; the caller treats the invocation as
 * failed exactly as the service would (API Gateway answers 503, SQS redelivers the batch).
 */
export const invokeWithTimeout = async <T>(fn: FunctionIdentity, run: () => Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InvocationTimeout(fn.functionName, fn.timeoutMs)), fn.timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** API Gateway's `time` format: `22/Nov/2026:05:45:47 +0000`. */
export const gatewayTime = (d: Date): string => {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
};
