import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { queryDueBucket } from './due-index';
import { isConditionalFailure, mapDynamoErrors } from './errors';
import { fnv1a, pad } from './keys';
import { ticketPartition } from './ticket-repository';

/**
 * A flow run: one conversation walking one version of a flow on one ticket (docs/data-model.md §2.28b;
 * decisions D139). One item per run in the ticket's partition, `sk = FLOWRUN#<runId>`, where the run id is
 * the ULID of the customer message that started it — so a redelivered trigger finds its run, and the
 * ticket's latest run is the last `FLOWRUN#` key (one Query, newest first). The ticket cascade deletes runs
 * with the ticket.
 *
 * `step` counts the steps taken; a step is claimed by a conditional write on (`step`, a free lease) before
 * any side effect and ends with a write conditional on (`step`, the claim's token) — so a redelivered event,
 * a customer writing during a wait, or two workers never carry out a node twice (its messages are also
 * keyed by (run, step), so a run taken over after a crash re-sends nothing). A wait with a time (a timer, or
 * the expiry of a question) sits in the due index: gsi4 `DUE#FLOW#<minute>#<s>` → `<pc>#<ticket>#<runId>`.
 */
export type FlowRunStatus = 'running' | 'waiting' | 'ended';
export type FlowWaitKind = 'input' | 'timer';

export interface FlowRun {
  companyId: number;
  ticketId: number;
  runId: string;
  flowId: number;
  version: number;
  whatsappId: number;
  status: FlowRunStatus;
  /** The node to carry out next (or the one waiting), and the place inside it (content card, menu phase). */
  nodeId: string | null;
  element: number;
  step: number;
  waitKind: FlowWaitKind | null;
  /** When a timer wait is over. */
  waitUntil: string | null;
  /** A run not moved on by then ends and hands the ticket to its queue. */
  expiresAt: string;
  variables: Record<string, string>;
  /** Invalid answers to the current menu. */
  attempts: number;
  /** ULID of the last customer message the run read (older ones are never read again). */
  lastInput: string;
  trigger: string;
  endReason: string | null;
  claimToken: string | null;
  leaseUntil: string | null;
  createdAt: string;
  updatedAt: string;
  /** A typebot node's session (its id at Typebot and when it goes idle); absent on other nodes' runs. */
  bot?: FlowBotSession | null;
  /** The provider call of a typebot/openai step, claimed before the call and its result kept (D173). */
  call?: FlowCall | null;
  /** The run's last timers (at most 10): when each was due and when it fired (D175). */
  timerLog?: { dueAt: string; firedAt: string }[];
}

export interface FlowBotSession {
  session: string | null;
  expiresAt: string | null;
}

/** What a bot node's provider call answered, kept so a step taken over after a crash never calls again. */
export interface FlowCallResult {
  /** Texts, or a voice note already stored in S3 (`mediaKey`). */
  replies: { body: string; mediaKey?: string }[];
  end: 'handoff' | 'finished' | null;
  session: string | null;
  /** The ULID of the newest customer message the call read. */
  read: string;
  /** The call failed after its retries (the run ends and hands over). */
  failed?: string;
}

export interface FlowCall {
  step: number;
  result: FlowCallResult | null;
}

export const FLOW_DUE_SHARDS = 8;
export const dueFlowPartition = (minute: string, shard: number): string => `DUE#FLOW#${minute}#${shard}`;
export const flowRunKeys = (companyId: number, ticketId: number, runId: string) => ({
  pk: ticketPartition(companyId, ticketId),
  sk: `FLOWRUN#${runId}`,
});
const dueKeys = (run: Pick<FlowRun, 'companyId' | 'ticketId' | 'runId'>, at: string) => ({
  gsi4pk: dueFlowPartition(at.slice(0, 16), fnv1a(`${run.companyId}#${run.ticketId}#${run.runId}`) % FLOW_DUE_SHARDS),
  gsi4sk: `${pad(run.companyId)}#${pad(run.ticketId)}#${run.runId}`,
});

/**
 * When the run next needs the tick: its timer, or its expiry while it waits for an answer; a running run a
 * minute after its last write (had its worker died mid-way, the tick takes it over once the lease is out).
 */
export const dueAtOf = (
  run: Pick<FlowRun, 'status' | 'waitKind' | 'waitUntil' | 'expiresAt' | 'updatedAt'>,
): string | null =>
  run.status === 'ended'
    ? null
    : run.status === 'running'
      ? new Date(Date.parse(run.updatedAt) + 60_000).toISOString()
      : run.waitKind === 'timer'
        ? run.waitUntil
        : run.expiresAt;

const stored = (run: FlowRun) => {
  const due = dueAtOf(run);
  return {
    ...flowRunKeys(run.companyId, run.ticketId, run.runId),
    type: 'FLOWRUN',
    ...run,
    ...(due ? { dueAt: due, ...dueKeys(run, due) } : {}),
  };
};

const toRun = (item: Record<string, unknown>): FlowRun => {
  const { pk: _p, sk: _s, type: _t, gsi4pk: _a, gsi4sk: _b, dueAt: _d, ...rest } = item;
  return rest as unknown as FlowRun;
};

/** Creates the run unless its trigger made it already; answers the stored run either way. */
export const createFlowRun = async (run: FlowRun): Promise<FlowRun> => {
  try {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: stored(run), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return run;
  } catch (err) {
    if (!isConditionalFailure(err)) return mapDynamoErrors(() => Promise.reject(err));
    return (await getFlowRun(run.companyId, run.ticketId, run.runId))!;
  }
};

export const getFlowRun = async (companyId: number, ticketId: number, runId: string): Promise<FlowRun | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({ TableName: tableName(), Key: flowRunKeys(companyId, ticketId, runId), ConsistentRead: true }),
    ),
  );
  return out.Item ? toRun(out.Item) : null;
};

/** The ticket's latest run, if any (consistent). */
export const latestFlowRun = async (companyId: number, ticketId: number): Promise<FlowRun | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': ticketPartition(companyId, ticketId), ':prefix': 'FLOWRUN#' },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    ),
  );
  const item = out.Items?.[0];
  return item ? toRun(item) : null;
};

/**
 * Claims the run's current step: only while `step` is still the one read and no other claim's lease is
 * running. Answers false when someone else has it or it moved on.
 */
export const claimFlowStep = async (run: FlowRun, token: string, now: Date, leaseMs: number): Promise<boolean> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: flowRunKeys(run.companyId, run.ticketId, run.runId),
        UpdateExpression: 'SET claimToken = :token, leaseUntil = :lease',
        ConditionExpression:
          'step = :step AND #status <> :ended AND (attribute_not_exists(leaseUntil) OR leaseUntil = :null OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':token': token,
          ':lease': new Date(now.getTime() + leaseMs).toISOString(),
          ':step': run.step,
          ':ended': 'ended',
          ':null': null,
          ':now': now.toISOString(),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};

/**
 * Writes the run after a step (or a release without one: `next.step === seen.step`), conditional on the
 * step read and on holding the claim; the lease is let go and the due entry follows the new wait. Answers
 * false when the claim was lost (its lease ran out and another worker took the step over).
 */
export const saveFlowStep = async (seen: FlowRun, next: FlowRun, token: string): Promise<boolean> => {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: stored({ ...next, claimToken: null, leaseUntil: null }),
        ConditionExpression: 'step = :step AND claimToken = :token',
        ExpressionAttributeValues: { ':step': seen.step, ':token': token },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};

/** Runs due in one minute bucket up to `until` (every shard): the tick's read of the due index. */
export const listDueFlowRuns = async (
  minute: string,
  until: string,
): Promise<{ companyId: number; ticketId: number; runId: string }[]> =>
  (
    await queryDueBucket({
      shards: FLOW_DUE_SHARDS,
      partition: (shard) => dueFlowPartition(minute, shard),
      projection: 'companyId, ticketId, runId, dueAt',
    })
  )
    .filter((i) => typeof i.dueAt === 'string' && i.dueAt <= until)
    .map((i) => ({ companyId: Number(i.companyId), ticketId: Number(i.ticketId), runId: String(i.runId) }));

/**
 * A person took the ticket (accepted, transferred to someone, closed; decisions D139): the run that has it
 * ends now, so its pending timer finds nothing to do. A step in flight at this moment keeps its claim and
 * ends the run itself before its next step (it reads the ticket first), so nothing more is sent either way.
 * Answers the ended run, or null when there was none (or a step holds it). Lives here, not in the flow
 * engine, so the tickets service can call it without the tickets and flows areas importing each other.
 */
/** A claim's lease: a worker that dies mid-step lets another take the step over after it. */
export const FLOW_LEASE_MS = 30_000;

export const endTakenFlowRun = async (
  companyId: number,
  ticketId: number,
  leaseMs = FLOW_LEASE_MS,
): Promise<FlowRun | null> => {
  const run = await latestFlowRun(companyId, ticketId);
  if (!run || run.status === 'ended') return null;
  const token = randomUUID();
  const now = new Date();
  if (!(await claimFlowStep(run, token, now, leaseMs))) return null;
  const ended: FlowRun = {
    ...run,
    status: 'ended',
    step: run.step + 1,
    waitKind: null,
    waitUntil: null,
    endReason: 'ticket-taken',
    updatedAt: now.toISOString(),
  };
  return (await saveFlowStep(run, ended, token)) ? ended : null;
};

/**
 * Claims the provider call of the run's current step (decisions D173), by the step's claim: only once per
 * step — a step taken over after a crash finds the call claimed, with its result when the call finished, and
 * never calls again. The lease grows to cover the call and its retries. Answers false when the step already
 * has a call (or the claim was lost).
 */
export const claimFlowCall = async (run: FlowRun, token: string, leaseUntil: Date): Promise<boolean> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: flowRunKeys(run.companyId, run.ticketId, run.runId),
        UpdateExpression: 'SET #call = :call, leaseUntil = :lease',
        ConditionExpression:
          'step = :step AND claimToken = :token AND (attribute_not_exists(#call.#step) OR #call.#step <> :step)',
        ExpressionAttributeNames: { '#call': 'call', '#step': 'step' },
        ExpressionAttributeValues: {
          ':call': { step: run.step, result: null },
          ':lease': leaseUntil.toISOString(),
          ':step': run.step,
          ':token': token,
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};

/** Keeps the call's result on the run while the step's claim is held; answers false when it was lost. */
export const saveFlowCallResult = async (run: FlowRun, token: string, result: FlowCallResult): Promise<boolean> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: flowRunKeys(run.companyId, run.ticketId, run.runId),
        UpdateExpression: 'SET #call = :call',
        ConditionExpression: 'step = :step AND claimToken = :token',
        ExpressionAttributeNames: { '#call': 'call' },
        ExpressionAttributeValues: { ':call': { step: run.step, result }, ':step': run.step, ':token': token },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};
