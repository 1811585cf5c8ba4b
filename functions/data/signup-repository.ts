import { Conflict } from '../shared/errors';
import { transactWrite } from './transactions';
import {
  companyIndexKeys,
  companyKeys,
  companyNameConflict,
  companyNameKeys,
  type Company,
} from './company-repository';
import { nextId } from './counter-repository';
import { renewalIndexKeys } from './invoice-repository';
import { emailKeys, USER_DEFAULTS, userIndexKeys, userKeys, userUsageKeys, type User } from './user-repository';

/**
 * Sign-up writes a new company and its first admin in ONE transaction (company, e-mail guard, user and
 * the company's user count), so a taken e-mail leaves no company behind.
 */
export const createCompanyWithAdmin = async (
  companyInput: Omit<Company, 'id' | 'createdAt' | 'updatedAt'>,
  adminInput: Pick<User, 'name' | 'email' | 'passwordHash'>,
  /**
   * Also claim the company-name guard (the platform owner's POST /companies, decisions D155); a taken name
   * answers ERR_COMPANY_NAME_ALREADY_EXISTS and writes nothing.
   */
  options: { nameGuard?: boolean } = {},
): Promise<{ company: Company; admin: User }> => {
  const companyId = await nextId(null, 'company');
  const userId = await nextId(companyId, 'user');
  const now = new Date().toISOString();
  const company: Company = { ...companyInput, id: companyId, createdAt: now, updatedAt: now };
  const admin: User = {
    ...USER_DEFAULTS,
    queueIds: [],
    ...adminInput,
    email: adminInput.email.trim().toLowerCase(),
    profile: 'admin',
    id: userId,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await transactWrite(
    [
      {
        Put: {
          // The renewal timer (data-model §2.29): the billing tick makes the trial's invoice (D152).
          Item: {
            ...companyKeys(companyId),
            ...companyIndexKeys(company),
            ...renewalIndexKeys(companyId, company.dueDate),
            ...company,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          Item: { ...emailKeys(admin.email), companyId, userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          Item: { ...userKeys(companyId, userId), ...userIndexKeys(companyId, userId, admin.name), ...admin },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          Key: userUsageKeys(companyId),
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      ...(options.nameGuard
        ? [
            {
              Put: {
                Item: { ...companyNameKeys(company.name), companyId },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : []),
    ],
    (failure) =>
      failure.reasons?.[4] === 'ConditionalCheckFailed'
        ? companyNameConflict()
        : new Conflict('ERR_EMAIL_ALREADY_EXISTS', 'An account with this e-mail already exists'),
  );
  return { company, admin };
};
