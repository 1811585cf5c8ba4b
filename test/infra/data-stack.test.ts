import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { BUCKETS } from '../../functions/data/buckets';
import { TABLE } from '../../functions/data/table-definition';
import { QUEUES } from '../../functions/shared/queues';
import { buildTestApp, logicalId, resource, resourcesOfType } from './app-fixture';

const { stacks, template } = buildTestApp();
const data = template(stacks.data);

describe('data stack: the single table', () => {
  const table = resource(data, logicalId(stacks.data.table));

  it('has the pk/sk string keys of the table definition', () => {
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ]);
    const attributes = table.Properties.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    for (const attribute of attributes) expect(attribute.AttributeType).toBe('S');
  });

  it('has every GSI of the definition, projecting ALL', () => {
    const indexes = table.Properties.GlobalSecondaryIndexes as Record<string, unknown>[];
    expect(indexes).toHaveLength(TABLE.globalSecondaryIndexes.length);
    expect(TABLE.globalSecondaryIndexes).toHaveLength(5);
    for (const definition of TABLE.globalSecondaryIndexes) {
      expect(indexes).toContainEqual({
        IndexName: definition.name,
        KeySchema: [
          { AttributeName: definition.partitionKey, KeyType: 'HASH' },
          { AttributeName: definition.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
  });

  it('keeps its data: point-in-time recovery, RETAIN on delete and replace, deletion protection', () => {
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('expires items on the ttl attribute and streams new and old images', () => {
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: TABLE.stream });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('is the only table and has no hard-coded name', () => {
    expect(Object.keys(resourcesOfType(data, 'AWS::DynamoDB::Table'))).toHaveLength(1);
    expect(table.Properties.TableName).toBeUndefined();
  });
});

describe('data stack: queues', () => {
  it.each(QUEUES.map((q) => [q.name, q] as const))(
    '%s has its settings and a dead-letter queue',
    (name, definition) => {
      const pair = stacks.data.queues[name];
      const queue = resource(data, logicalId(pair.queue));
      const dlqId = logicalId(pair.deadLetterQueue);
      const dlq = resource(data, dlqId);

      expect(queue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      });
      expect(queue.Properties.VisibilityTimeout).toBe(definition.visibilityTimeoutSeconds);
      expect(queue.Properties.MessageRetentionPeriod).toBe(definition.retentionSeconds);
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties.QueueName).toBeUndefined();

      if (definition.fifo) {
        // Dedup on the provider message id we set, never on content (functions/shared/queues.ts).
        for (const q of [queue, dlq]) {
          expect(q.Properties.FifoQueue).toBe(true);
          expect(q.Properties.ContentBasedDeduplication).toBe(false);
        }
      } else {
        expect(queue.Properties.FifoQueue).toBeUndefined();
        expect(dlq.Properties.FifoQueue).toBeUndefined();
      }
      expect(dlq.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    },
  );

  it('has exactly one queue and one dead-letter queue per definition, all refusing plain HTTP', () => {
    expect(Object.keys(resourcesOfType(data, 'AWS::SQS::Queue'))).toHaveLength(QUEUES.length * 2);
    const policies = Object.values(resourcesOfType(data, 'AWS::SQS::QueuePolicy'));
    const protectedQueues = policies.flatMap((p) => p.Properties.Queues as unknown[]);
    expect(protectedQueues).toHaveLength(QUEUES.length * 2);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});

describe('data stack: buckets and secret', () => {
  it.each(BUCKETS.map((b) => [b.name] as const))('%s bucket is private, encrypted, TLS-only and retained', (name) => {
    const id = logicalId(stacks.data.buckets[name]);
    const bucket = resource(data, id);
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.LoggingConfiguration).toBeDefined();
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it.each(BUCKETS.filter((b) => b.servedToBrowsers).map((b) => [b.name] as const))(
    '%s bucket may be read by CloudFront (origin access control), nothing else from outside',
    (name) => {
      data.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logicalId(stacks.data.buckets[name]) },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'cloudfront.amazonaws.com' },
              Action: 's3:GetObject',
            }),
          ]),
        },
      });
    },
  );

  it('exports are never served by CloudFront and expire after a day (decisions D127)', () => {
    const id = logicalId(stacks.data.buckets.exports);
    const bucket = resource(data, id);
    expect(bucket.Properties.CorsConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: 1, Status: 'Enabled' }),
    ]);
    const policies = Object.values(
      data.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: id } } }),
    );
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Principal?: unknown }[]);
    expect(statements.some((st) => JSON.stringify(st.Principal ?? '').includes('cloudfront'))).toBe(false);
  });

  it('media answers CORS for presigned PUTs only (the browser uploads large files straight to S3)', () => {
    const bucket = resource(data, logicalId(stacks.data.buckets.media));
    expect(bucket.Properties.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['PUT'],
          AllowedOrigins: ['*'],
          AllowedHeaders: ['content-type', 'content-length'],
          MaxAge: 3600,
        },
      ],
    });
  });

  it('generates the app secret instead of taking a value', () => {
    data.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
      SecretString: Match.absent(),
    });
  });
});
