/**
 * The single table, described once. The CDK data stack (infra/stacks/data-stack.ts) and the local cloud
 * (infra/local/dynamodb.ts) both build the table from this object, so keys and indexes cannot drift.
 * docs/data-model.md says which entity uses which index and why.
 *
 * Generic attribute names: every item has `pk` and `sk`; an item joins index N by carrying `gsiNpk`
 * and `gsiNsk` (sparse indexes: an item without them is not in the index). All keys are strings.
 */
export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const TABLE = {
  /** Logical name; the physical name comes from config (TABLE_NAME) in AWS and locally. */
  logicalName: 'ZapDeskTable',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Items with this numeric attribute (epoch seconds) expire: refresh tokens, rate limits, sockets. */
  ttlAttribute: 'ttl',
  globalSecondaryIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  ] satisfies IndexDefinition[],
  /** Streams feed dashboard counters and real-time fan-out of changes made outside a request. */
  stream: 'NEW_AND_OLD_IMAGES',
} as const;

export type IndexName = (typeof TABLE.globalSecondaryIndexes)[number]['name'];

/** Every key attribute, for AttributeDefinitions. */
export const keyAttributes = (): string[] => [
  TABLE.partitionKey,
  TABLE.sortKey,
  ...TABLE.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
];

/** The CreateTable input the local cloud uses (AWS uses the CDK construct built from the same object). */
export const createTableInput = (tableName: string) => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: keyAttributes().map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
  KeySchema: [
    { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map((g) => ({
    IndexName: g.name,
    KeySchema: [
      { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  })),
  StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.stream },
});
