import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { userKeys } from './user-repository';

/**
 * What ticket visibility needs of a user (functions/core/tickets/visibility.ts), for the users behind a
 * company's open sockets: one BatchGet of ≤ 100 users per call, reading only these attributes — O(connected
 * users), never the whole user partition and never a password hash.
 */
export interface StoredTicketViewer {
  id: number;
  name: string;
  profile: string;
  super?: boolean;
  queueIds?: number[];
  allTicket?: string;
  allowGroup?: boolean;
  allUserChat?: string;
  /** Working hours (`HH:MM`, company zone): routing gives random tickets only inside them (D93). */
  startWork?: string;
  endWork?: string;
}

const ATTRIBUTES = [
  'id',
  '#name',
  'profile',
  '#super',
  'queueIds',
  'allTicket',
  'allowGroup',
  'allUserChat',
  'startWork',
  'endWork',
];

export const getTicketViewers = async (
  companyId: number,
  userIds: readonly number[],
): Promise<StoredTicketViewer[]> => {
  const found: StoredTicketViewer[] = [];
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => userKeys(companyId, id));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: {
                Keys: pending,
                ProjectionExpression: ATTRIBUTES.join(', '),
                ExpressionAttributeNames: { '#name': 'name', '#super': 'super' },
              },
            },
          }),
        ),
      );
      found.push(...((out.Responses?.[tableName()] ?? []) as StoredTicketViewer[]));
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found.map((u) => ({ ...u, id: Number(u.id) }));
};
