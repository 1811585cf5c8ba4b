import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * Settings (docs/data-model.md §2.4, §2.5).
 * - Company settings: one item per company, `pk = C#<c>, sk = SETTINGS`, one attribute per column; a
 *   column never written reads as the spec's default (the service supplies it).
 * - Global settings: platform items `pk = SETTING, sk = <key>` with `value`.
 * Column and key names reach these functions only after the services' allow-lists checked them.
 */
export const companySettingsKeys = (companyId: number) => ({ pk: company(companyId), sk: 'SETTINGS' });
export const globalSettingKeys = (key: string) => ({ pk: 'SETTING', sk: key });

export const getCompanySettingsItem = async (companyId: number): Promise<Record<string, unknown>> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: companySettingsKeys(companyId) })),
  );
  const { pk: _pk, sk: _sk, ...columns } = out.Item ?? {};
  return columns;
};

export const setCompanySetting = async (
  companyId: number,
  column: string,
  value: unknown,
  now = new Date(),
): Promise<Record<string, unknown>> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: companySettingsKeys(companyId),
        UpdateExpression: 'SET #col = :value, updatedAt = :now',
        ExpressionAttributeNames: { '#col': column },
        ExpressionAttributeValues: { ':value': value, ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  const { pk: _pk, sk: _sk, ...columns } = out.Attributes ?? {};
  return columns;
};

export interface StoredGlobalSetting {
  key: string;
  value: string;
  updatedAt: string;
}

export const getGlobalSetting = async (key: string): Promise<StoredGlobalSetting | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: globalSettingKeys(key) })),
  );
  return out.Item ? { key, value: String(out.Item.value), updatedAt: String(out.Item.updatedAt) } : null;
};

/** Every stored global setting: a Query on one small platform partition (tens of keys). */
export const listGlobalSettings = async (): Promise<StoredGlobalSetting[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'SETTING' },
      }),
    ),
  );
  return (out.Items ?? []).map((i) => ({ key: String(i.sk), value: String(i.value), updatedAt: String(i.updatedAt) }));
};

export const putGlobalSetting = async (key: string, value: string, now = new Date()): Promise<StoredGlobalSetting> => {
  const item = { ...globalSettingKeys(key), value, updatedAt: now.toISOString() };
  await mapDynamoErrors(() => db().send(new PutCommand({ TableName: tableName(), Item: item })));
  return { key, value, updatedAt: item.updatedAt };
};

/**
 * A platform file setting (docs/data-model.md §2.5; decisions D169): `pk = SETTINGFILE, sk = <destination>`
 * with the file sealed (`sealed`, never served), its name, size and upload time. Outside the `SETTING`
 * partition, so GET /settings never sees it.
 */
export const settingFileKeys = (destination: string) => ({ pk: 'SETTINGFILE', sk: destination });

export interface StoredSettingFile {
  destination: string;
  sealed: string;
  fileName: string;
  size: number;
  uploadedAt: string;
}

export const getSettingFile = async (destination: string): Promise<StoredSettingFile | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: settingFileKeys(destination) })),
  );
  if (!out.Item) return null;
  return {
    destination,
    sealed: String(out.Item.sealed),
    fileName: String(out.Item.fileName),
    size: Number(out.Item.size),
    uploadedAt: String(out.Item.uploadedAt),
  };
};

export const putSettingFile = async (file: StoredSettingFile): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...settingFileKeys(file.destination), type: 'SETTINGFILE', ...file },
      }),
    ),
  );
};
