import type { FlowCampaignDetail, FlowCampaignList, FlowCampaignView } from '../../contracts/flows';
import { getConnection } from '../../data/connection-repository';
import {
  createFlowCampaign,
  deleteFlowCampaign,
  flowCampaignNotFound,
  getFlowCampaign,
  listFlowCampaigns,
  replaceFlowCampaign,
  type FlowCampaign,
} from '../../data/flow-campaign-repository';
import { getFlow } from '../../data/flow-repository';
import { searchForm } from '../../data/keys';
import type { ReadScope } from '../../data/read-scope';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError, type FieldError } from '../../shared/errors';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';

/**
 * Phrase campaigns (administration §2 Campaigns by phrase, §3 Flow campaign, §4, §5; decisions D140): a
 * phrase that, written by a customer on the campaign's connection (or any connection when none is set),
 * starts the campaign's flow. Created active (create sends no status); the edit sends it. Name, flow and
 * phrase must be given; the flow must be one of the company's; the connection may be left empty.
 */
export const toFlowCampaignView = (c: FlowCampaign): FlowCampaignView => ({
  id: c.id,
  name: c.name,
  phrase: c.phrase,
  flowId: c.flowId,
  whatsappId: c.whatsappId,
  status: c.status,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

interface CampaignInput {
  name: string;
  phrase: string;
  flowId: number;
  whatsappId?: number | '' | null | undefined;
}

const checked = async (
  auth: AuthContext,
  input: CampaignInput,
): Promise<{ flowId: number; whatsappId: number | null; name: string; phrase: string }> => {
  const problems: FieldError[] = [];
  if (!(await getFlow(auth.companyId, input.flowId))) problems.push({ field: 'body.flowId', reason: 'flow not found' });
  const whatsappId = typeof input.whatsappId === 'number' ? input.whatsappId : null;
  if (whatsappId !== null && !(await getConnection(auth.companyId, whatsappId))) {
    problems.push({ field: 'body.whatsappId', reason: 'connection not found' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { name: input.name, phrase: input.phrase, flowId: input.flowId, whatsappId };
};

export const listCompanyFlowCampaigns = async (auth: AuthContext): Promise<FlowCampaignList> => ({
  flow: (await listFlowCampaigns(auth.companyId)).map(toFlowCampaignView),
});

const findCampaign = async (auth: AuthContext, id: number): Promise<FlowCampaign> => {
  const campaign = await getFlowCampaign(auth.companyId, id);
  if (!campaign) throw flowCampaignNotFound();
  return campaign;
};

export const showFlowCampaign = async (auth: AuthContext, id: number): Promise<FlowCampaignDetail> => ({
  details: toFlowCampaignView(await findCampaign(auth, id)),
});

export const createCompanyFlowCampaign = async (auth: AuthContext, input: CampaignInput): Promise<FlowCampaignView> =>
  toFlowCampaignView(await createFlowCampaign(auth.companyId, { ...(await checked(auth, input)), status: true }));

export const updateCompanyFlowCampaign = async (
  auth: AuthContext,
  input: CampaignInput & { id: number; status?: boolean | undefined },
): Promise<FlowCampaignView> => {
  const values = await checked(auth, input);
  return toFlowCampaignView(
    await withRetry(CHANGED_OR_BUSY, async () => {
      const current = await findCampaign(auth, input.id);
      return replaceFlowCampaign(current, { ...values, status: input.status ?? current.status });
    }),
  );
};

export const deleteCompanyFlowCampaign = async (auth: AuthContext, id: number): Promise<void> => {
  await withRetry(CHANGED_OR_BUSY, async () => deleteFlowCampaign(await findCampaign(auth, id)));
};

/**
 * The active phrase campaign a customer's message sets off on a connection, if any (D140): the message
 * equals the phrase once both are in search form (case, accents and spacing ignored); a campaign of this
 * connection wins over one of every connection, then the oldest. The company's campaigns are read once per
 * scope (the inbound job's shared reads keep them up to its configuration time to live).
 */
export const matchPhraseCampaign = async (
  scope: ReadScope,
  companyId: number,
  whatsappId: number,
  body: string,
): Promise<FlowCampaign | null> => {
  const wanted = searchForm(body);
  if (!wanted) return null;
  const campaigns = await scope.memo(`flowCampaigns:${companyId}`, () => listFlowCampaigns(companyId));
  const matching = campaigns.filter(
    (c) => c.status && (c.whatsappId === null || c.whatsappId === whatsappId) && searchForm(c.phrase) === wanted,
  );
  return matching.find((c) => c.whatsappId === whatsappId) ?? matching[0] ?? null;
};
