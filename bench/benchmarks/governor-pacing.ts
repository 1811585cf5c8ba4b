import { createCompany } from '../../functions/data/company-repository';
import { createConnection } from '../../functions/data/connection-repository';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import { CAMPAIGN_SETTINGS_DEFAULTS } from '../../functions/core/outbound/campaign-settings';
import { planSlot, reserveSendSlot, type GovernorRules } from '../../functions/core/outbound/send-governor';
import { EMPTY_GOVERNOR, type GovernorState } from '../../functions/data/send-governor-repository';
import type { Benchmark, BenchContext, QuickResult } from '../benchmark';
import { markdownTable, ms, percentile } from '../stats';

/**
 * Pacing error of the send governor (issue 16 item 13; decisions D117): 200 reservations on one connection,
 * each gap between consecutive slots against its configured target (messageInterval, or greaterInterval
 * after every longerIntervalAfter-th send). Measured on the governor's stored state in DynamoDB Local,
 * one reserver and four reservers racing for the same connection, and in the pure arithmetic (the quick
 * check). Goal: every gap within ±1 s of its target.
 */
const RESERVATIONS = 200;
const SETTINGS = { messageInterval: 3, longerIntervalAfter: 20, greaterInterval: 10, dailyLimit: 100_000 };
const TOLERANCE_MS = 1_000;

/** Each gap's error (ms) against its target, given the slot times in order. */
const gapErrors = (times: number[]): number[] => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => {
    const n = i + 1; // sends before this gap
    const target =
      (SETTINGS.longerIntervalAfter > 0 && n % SETTINGS.longerIntervalAfter === 0
        ? SETTINGS.greaterInterval
        : SETTINGS.messageInterval) * 1000;
    return Math.abs(t - sorted[i]! - target);
  });
};

const rules: GovernorRules = {
  settings: { ...CAMPAIGN_SETTINGS_DEFAULTS, ...SETTINGS },
  timeZone: 'America/Sao_Paulo',
  officeHours: false,
};

const arithmeticTimes = (): number[] => {
  const now = Date.UTC(2026, 10, 27, 13, 0);
  let state: GovernorState = EMPTY_GOVERNOR;
  const times: number[] = [];
  for (let i = 0; i < RESERVATIONS; i += 1) {
    const plan = planSlot(state, rules, now);
    times.push(plan.at);
    state = { ...plan.next, version: state.version + 1 };
  }
  return times;
};

const storedTimes = async (reservers: number): Promise<{ times: number[]; ms: number[] }> => {
  const company = await createCompany({
    name: `Bench governor ${reservers}`,
    email: `bench-governor-${Date.now()}-${reservers}@bench.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2099-01-01',
  });
  await putCampaignSettingsItem(company.id, { ...CAMPAIGN_SETTINGS_DEFAULTS, ...SETTINGS });
  const { connection } = await createConnection(company.id, {
    name: 'Governor bench',
    channel: 'whatsapp',
    status: 'CONNECTED',
  });
  const now = new Date();
  const times: number[] = [];
  const latencies: number[] = [];
  const worker = async (count: number) => {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const answer = await reserveSendSlot({
        companyId: company.id,
        whatsappId: connection.id,
        kind: 'campaign',
        now,
        maxWaitMs: 24 * 3600_000,
      });
      latencies.push(performance.now() - started);
      if (!('at' in answer)) throw new Error(`deferred: ${answer.reason}`);
      times.push(answer.at.getTime());
    }
  };
  await Promise.all(Array.from({ length: reservers }, () => worker(RESERVATIONS / reservers)));
  return { times, ms: latencies };
};

const row = (name: string, times: number[], latencies: number[] | null) => {
  const errors = gapErrors(times);
  const distinct = new Set(times).size;
  return {
    ok: Math.max(...errors) <= TOLERANCE_MS && distinct === times.length,
    cells: [
      name,
      times.length,
      distinct,
      ms(Math.max(...errors), 0),
      errors.filter((e) => e > TOLERANCE_MS).length,
      latencies ? ms(percentile(latencies, 50)) : '–',
      latencies ? ms(percentile(latencies, 99)) : '–',
    ],
  };
};

const quickCheck = async (): Promise<QuickResult> => {
  const errors = gapErrors(arithmeticTimes());
  const worst = Math.max(...errors);
  return {
    ok: worst <= TOLERANCE_MS,
    lines: [`governor arithmetic: worst gap error ${worst} ms over ${RESERVATIONS}`],
  };
};

export const governorPacing: Benchmark = {
  name: 'governor-pacing',
  description: `Send governor: gaps between ${RESERVATIONS} reserved slots of one connection against their targets`,
  goal: 'every gap within ±1 s of its configured target (messageInterval / greaterInterval)',
  needsCloud: true,
  quick: quickCheck,
  run: async (ctx: BenchContext) => {
    ctx.log('governor-pacing: arithmetic, 1 reserver, 4 racing reservers');
    const results = [
      row('arithmetic (planSlot)', arithmeticTimes(), null),
      await storedTimes(1).then((r) => row('DynamoDB state, 1 reserver', r.times, r.ms)),
      await storedTimes(4).then((r) => row('DynamoDB state, 4 reservers racing', r.times, r.ms)),
    ];
    const goalMet = results.every((r) => r.ok);
    return {
      table: markdownTable(
        [
          'scenario',
          'slots',
          'distinct',
          'worst gap error ms',
          'gaps off by > 1 s',
          'reserve p50 ms',
          'reserve p99 ms',
        ],
        results.map((r) => r.cells),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
      goalMet,
      summary: `Worst gap error over ${RESERVATIONS} slots: ${results.map((r) => `${r.cells[0]} ${r.cells[3]} ms`).join('; ')}.`,
      notes:
        `Settings: messageInterval ${SETTINGS.messageInterval} s, longerIntervalAfter ${SETTINGS.longerIntervalAfter}, ` +
        `greaterInterval ${SETTINGS.greaterInterval} s. The governor computes slot times; these figures are those ` +
        'times (asked all at once, so each slot is the previous plus its target). Actual send times through the ' +
        "outbound pipeline and the simulator are not measured here: the benchmark's local cloud runs without " +
        'pollers or the WhatsApp worker. Reserve latency is from a shared, loaded 2-core machine.',
    };
  },
};
