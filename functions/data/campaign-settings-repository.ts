import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * Campaign settings (docs/data-model.md §2.5): one item per company, `pk = C#<c>, sk = CAMPAIGNSETTINGS`,
 * one attribute per setting key (administration §3 "Campaign setting keys", plus our `dailyLimit`,
 * decisions D117). A key never saved reads as its default (functions/core/outbound/campaign-settings.ts).
 */
export const campaignSettingsKeys = (companyId: number) => ({ pk: company(companyId), sk: 'CAMPAIGNSETTINGS' });

export const getCampaignSettingsItem = async (companyId: number): Promise<Record<string, unknown>> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: campaignSettingsKeys(companyId), ConsistentRead: true })),
  );
  const { pk: _pk, sk: _sk, type: _t, ...values } = out.Item ?? {};
  return values;
};

export const putCampaignSettingsItem = async (companyId: number, values: Record<string, unknown>): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...campaignSettingsKeys(companyId), type: 'CAMPAIGNSETTINGS', ...values },
      }),
    ),
  );
};
