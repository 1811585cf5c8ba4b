import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * What WhatsApp's directory answered for a request that waits for it (decisions D149):
 * `pk = C#<c>#DIRCHECK#<requestId>, sk = ANSWER` with `answers` (number → on WhatsApp), written by the
 * connection's holder and read by the request (strongly consistent), kept an hour.
 */
const KEEP_SECONDS = 3_600;

const keys = (companyId: number, requestId: string) => ({
  pk: `${company(companyId)}#DIRCHECK#${requestId}`,
  sk: 'ANSWER',
});

export const putDirectoryAnswer = async (
  companyId: number,
  requestId: string,
  answers: Record<string, boolean>,
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys(companyId, requestId),
          type: 'DIRCHECK',
          answers,
          ttl: Math.floor(Date.now() / 1000) + KEEP_SECONDS,
        },
      }),
    ),
  );
};

export const getDirectoryAnswer = async (
  companyId: number,
  requestId: string,
): Promise<Record<string, boolean> | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: keys(companyId, requestId), ConsistentRead: true })),
  );
  return out.Item ? (out.Item.answers as Record<string, boolean>) : null;
};
