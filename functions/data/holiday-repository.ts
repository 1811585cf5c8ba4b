import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * A company's own holiday list for one year (docs/data-model.md §2.21; decisions D120):
 * `pk = C#<c>, sk = HOLIDAYS#<year>` with `holidays: [{date, name}]`. A year without the item uses the
 * national defaults (functions/core/schedules/holidays.ts).
 */
export const holidayKeys = (companyId: number, year: number) => ({ pk: company(companyId), sk: `HOLIDAYS#${year}` });

export const getCompanyHolidays = async (
  companyId: number,
  year: number,
): Promise<{ date: string; name: string }[] | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: holidayKeys(companyId, year) })),
  );
  return out.Item ? (out.Item.holidays as { date: string; name: string }[]) : null;
};

export const putCompanyHolidays = async (
  companyId: number,
  year: number,
  holidays: { date: string; name: string }[],
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...holidayKeys(companyId, year),
          type: 'HOLIDAYS',
          year,
          holidays,
          updatedAt: new Date().toISOString(),
        },
      }),
    ),
  );
};
