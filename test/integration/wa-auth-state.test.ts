import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { initAuthCreds, proto, type LTHashState, type SignalDataSet } from '@whiskeysockets/baileys';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBaileysDriver, toBaileysKeyStore } from '../../functions/channels/whatsapp/baileys-driver';
import { db, tableName } from '../../functions/data/client';
import {
  AUTH_BUCKETS,
  authPartition,
  authStateStore,
  credsKeys,
  signalKeyKeys,
} from '../../functions/data/wa-auth-state-repository';
import { someConnection } from '../helpers/connections';
import { freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * The Baileys auth state in DynamoDB (docs/data-model.md §2.11) with Baileys' own values and codec: what
 * goes in comes back equal, Buffers as Buffers, app-state keys as protobuf objects.
 */
let t: TestCompany;
const codec = createBaileysDriver({
  makeSocket: () => {
    throw new Error('no socket in this test');
  },
}).codec;

beforeAll(async () => {
  t = await freshCompany();
});

const newStore = async () => {
  const connection = await someConnection(t.company.id);
  return { id: connection.id, store: authStateStore(t.company.id, connection.id, codec) };
};

const itemsIn = async (pk: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('credentials', () => {
  it('round-trip Baileys credentials with every Buffer intact', async () => {
    const { id, store } = await newStore();
    expect(await store.readCreds()).toBeNull();
    const creds = { ...initAuthCreds(), me: { id: '5511987654321:4@s.whatsapp.net', name: 'Loja' }, registered: true };
    expect(await store.writeCreds(creds, 1)).toBe(true);

    const back = (await store.readCreds()) as typeof creds;
    expect(back).toEqual(creds);
    expect(Buffer.isBuffer(back.signedIdentityKey.private)).toBe(true);
    expect(Buffer.isBuffer(back.signedPreKey.signature)).toBe(true);
    const [item] = await itemsIn(credsKeys(t.company.id, id).pk);
    expect(item).toMatchObject({ sk: 'creds', type: 'WA_CREDS', fence: 1, value: expect.any(String) });
  });

  it('only the newest lease holder writes them: an older fence is refused and changes nothing', async () => {
    const { store } = await newStore();
    const mine = initAuthCreds();
    const theirs = initAuthCreds();
    expect(await store.writeCreds(theirs, 2)).toBe(true);
    expect(await store.writeCreds(mine, 1)).toBe(false);
    expect(await store.readCreds()).toEqual(theirs);
    expect(await store.writeCreds(mine, 3)).toBe(true);
    expect(await store.readCreds()).toEqual(mine);
  });
});

describe('signal keys', () => {
  /** One of each type Baileys 6.17 stores, with its real value shapes. */
  const sampleKeys = () => {
    const creds = initAuthCreds();
    const lthash: LTHashState = {
      version: 7,
      hash: Buffer.alloc(128, 3),
      indexValueMap: { 'bWFjMQ==': { valueMac: Buffer.from([9, 8, 7]) } },
    };
    const data: SignalDataSet = {
      'pre-key': Object.fromEntries(
        Array.from({ length: 60 }, (_, i) => [String(i + 1), initAuthCreds().signedIdentityKey]),
      ),
      session: { '5511987654321.0': Buffer.from('session record bytes') },
      'sender-key': { '120363000000000000@g.us::5511987654321::0': new Uint8Array([1, 2, 3, 4]) },
      'sender-key-memory': { '120363000000000000@g.us': { '5511987654321:0@s.whatsapp.net': true } },
      'app-state-sync-key': {
        AAAAAQ: proto.Message.AppStateSyncKeyData.fromObject({
          keyData: Buffer.from('k'.repeat(32)),
          fingerprint: { rawId: 1, currentIndex: 2, deviceIndexes: [0, 1] },
          timestamp: 1700000000,
        }),
      },
      'app-state-sync-version': { regular_high: lthash },
    };
    return { creds, data };
  };

  it('set writes in batches across the 16 partitions; get reads back equal values', async () => {
    const { id, store } = await newStore();
    const { data } = sampleKeys();
    await store.keys.set(data as Record<string, Record<string, unknown>>);

    const preKeys = await store.keys.get('pre-key', Object.keys(data['pre-key']!));
    expect(Object.keys(preKeys)).toHaveLength(60);
    expect(preKeys['17']).toEqual(data['pre-key']!['17']);
    expect(Buffer.isBuffer((preKeys['17'] as { private: Buffer }).private)).toBe(true);
    expect(await store.keys.get('session', ['5511987654321.0'])).toEqual(data.session);
    const senderKey = await store.keys.get('sender-key', ['120363000000000000@g.us::5511987654321::0']);
    expect(Buffer.from(senderKey['120363000000000000@g.us::5511987654321::0'] as Uint8Array)).toEqual(
      Buffer.from([1, 2, 3, 4]),
    );
    expect(await store.keys.get('sender-key-memory', ['120363000000000000@g.us'])).toEqual(data['sender-key-memory']);
    expect(await store.keys.get('app-state-sync-version', ['regular_high'])).toEqual(data['app-state-sync-version']);
    // Missing ids are left out, as Baileys expects.
    expect(await store.keys.get('pre-key', ['9999', '1'])).toEqual({ 1: data['pre-key']!['1'] });

    // The keys sit in several of the connection's partitions, each in the one its key hashes to.
    const pks = new Set(Object.keys(data['pre-key']!).map((k) => signalKeyKeys(t.company.id, id, 'pre-key', k).pk));
    expect(pks.size).toBeGreaterThan(8);
    for (const pk of pks) expect(pk).toMatch(new RegExp(`^C#${t.company.id}#WHATSAPP#\\d{10}#AUTH#\\d{1,2}$`));
  });

  it('through Baileys’ key-store shape, app-state sync keys come back as protobuf objects', async () => {
    const { store } = await newStore();
    const { data } = sampleKeys();
    const keys = toBaileysKeyStore(store.keys);
    await keys.set({ 'app-state-sync-key': data['app-state-sync-key'] });
    const found = await keys.get('app-state-sync-key', ['AAAAAQ']);
    expect(found.AAAAAQ).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(found.AAAAAQ!.keyData!)).toEqual(Buffer.from('k'.repeat(32)));
    expect(found.AAAAAQ!.fingerprint).toMatchObject({ rawId: 1, currentIndex: 2, deviceIndexes: [0, 1] });
  });

  it('a null value deletes a key; clear deletes the credentials and every key', async () => {
    const { id, store } = await newStore();
    const { creds, data } = sampleKeys();
    await store.writeCreds(creds, 1);
    await store.keys.set(data as Record<string, Record<string, unknown>>);
    await store.keys.set({ 'pre-key': { 1: null, 2: null }, session: { '5511987654321.0': null } });
    expect(Object.keys(await store.keys.get('pre-key', ['1', '2', '3']))).toEqual(['3']);
    expect(await store.keys.get('session', ['5511987654321.0'])).toEqual({});

    const removed = await store.clear();
    expect(removed).toBe(1 + 58 + 1 + 1 + 1 + 1);
    expect(await store.readCreds()).toBeNull();
    for (let b = 0; b < AUTH_BUCKETS; b += 1) expect(await itemsIn(authPartition(t.company.id, id, b))).toEqual([]);
    expect(await store.clear()).toBe(0);
  });
});
