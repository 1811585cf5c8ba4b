import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../shared/config';

/**
 * The DynamoDB document client, created once per process. Only repositories (functions/data/) import
 * this module; the ESLint config forbids the import anywhere else.
 */
let documentClient: DynamoDBDocumentClient | undefined;

export const createDocumentClient = (
  options: { endpoint?: string | undefined; region?: string; maxAttempts?: number } = {},
): DynamoDBDocumentClient => {
  const base = new DynamoDBClient({
    region: options.region ?? 'us-east-1',
    maxAttempts: options.maxAttempts ?? 3,
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
};

export const db = (): DynamoDBDocumentClient => {
  if (!documentClient) {
    const c = config();
    documentClient = createDocumentClient({ endpoint: c.DYNAMODB_ENDPOINT, region: c.AWS_REGION });
  }
  return documentClient;
};

export const tableName = (): string => config().TABLE_NAME;

/** Fault-injection tests swap the client (aws-sdk-client-mock works on the instance). */
export const setDocumentClientForTests = (client: DynamoDBDocumentClient | undefined): void => {
  documentClient = client;
};
