import type { LocalStack } from '../local/stack.ts';
import { DEMO_CONNECTIONS } from '../local/sandbox/demo-data.ts';

/**
 * `npm run bench -- backtest`: 100 rules, each on 100 of one user's 500 campaigns, each backtested over
 * 30 days through the gateway of an in-process local stack, on each platform. The sandboxes' recordings
 * give the upstream requests of each backtest: the figures' read (its query, and the pages it took),
 * the campaigns' listing and the account's facts. Then the evaluator's CPU on the same kind of rules with
 * a condition comparing two windows, against the same rules without the comparison.
 */
const CAMPAIGNS = 500;
const RULES = 100;
const CAMPAIGNS_PER_RULE = 100;
const DAYS = 30;
const PLATFORMS = ['social', 'searchads', 'professional'] as const;
type Platform = (typeof PLATFORMS)[number];

const accountOf = (platform: Platform) => (platform === 'social' ? '1790000000000001' : platform === 'searchads' ? '7900000001' : '790000001');
const connectionOf = (platform: Platform, account: string) =>
  platform === 'social'
    ? { social: { accessToken: DEMO_CONNECTIONS.social.accessToken, adAccountId: account, pageId: DEMO_CONNECTIONS.social.pageId } }
    : platform === 'searchads'
      ? { searchads: { refreshToken: DEMO_CONNECTIONS.searchads.refreshToken, customerId: account } }
      : { professional: { accessToken: DEMO_CONNECTIONS.professional.accessToken, adAccountId: account } };
/** the figures' reads on each platform, by path */
const FIGURES = /\/insights|googleAds:searchStream|\/adAnalytics/;

export interface BacktestFigures {
  platform: Platform;
  backtests: number;
  secondsEach: { p50: number; p95: number };
  /** per backtest: reader queries of the figures, their HTTP requests (pages), and every upstream request */
  figureQueries: number;
  figureRequests: number;
  upstream: number;
  actions: number;
}

export async function backtestBench(stack: LocalStack): Promise<{ platforms: BacktestFigures[]; compareTo: { ratio: number; spread: string } }> {
  const { createApiKey } = await import('../shared/store/api-keys.ts');
  const { platformAdapters } = await import('../shared/platforms/registry.ts');
  const { apiKey } = await createApiKey('bench-backtest');
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { results: Record<string, any> };
    if (response.status !== 200 || answer.results.success !== true) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer.results;
  };
  const recorded = async (platform: Platform) =>
    (await (await fetch(`${stack.sandboxes[platform]?.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string }>;
  // the reader's own count of its queries, whatever the pages
  let queries = 0;
  for (const adapter of Object.values(platformAdapters)) {
    const read = adapter.metrics.read.bind(adapter.metrics);
    adapter.metrics.read = async (session, ids, range) => {
      queries++;
      return read(session, ids, range);
    };
  }

  const platforms: BacktestFigures[] = [];
  for (const platform of PLATFORMS) {
    const account = accountOf(platform);
    const seeded = await fetch(`${stack.sandboxes[platform]?.url}/__sandbox/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, count: CAMPAIGNS }),
    });
    const { ids } = (await seeded.json()) as { ids: string[] };
    const userId = `bench-backtest-${platform}`;
    await post('/users/create_user', { userId, connections: connectionOf(platform, account) });
    const rules = Array.from({ length: RULES }, (_, index) => ({
      platform,
      name: `Backtest ${index}`,
      campaignIds: Array.from({ length: CAMPAIGNS_PER_RULE }, (_, offset) => ids[(index * 5 + offset) % CAMPAIGNS] as string),
      conditions: [
        { metric: 'cpc', operator: '>', value: 0.01 * (index % 10), window: 'LAST_7_DAYS' },
        { metric: 'impressions', operator: '>', value: -50, window: 'LAST_3_DAYS', compareTo: { window: 'LAST_14_DAYS' } },
      ],
      action: index % 2 === 0 ? { type: 'PAUSE' } : { type: 'CHANGE_DAILY_BUDGET', percent: 10, minDailyBudget: '1', maxDailyBudget: '500' },
      schedule: 'DAILY',
      cooldownHours: 48,
    }));
    const seconds: number[] = [];
    let figureRequests = 0;
    let upstream = 0;
    let actions = 0;
    queries = 0;
    for (const rule of rules) {
      const before = await recorded(platform);
      const started = performance.now();
      const { summary } = await post('/optimize_me/backtest_rule', { userId, rule, days: DAYS });
      seconds.push((performance.now() - started) / 1000);
      const made = (await recorded(platform)).slice(before.length);
      upstream += made.length;
      figureRequests += made.filter((request) => FIGURES.test(request.path)).length;
      actions += summary.actions as number;
    }
    const sorted = [...seconds].sort((a, b) => a - b);
    platforms.push({
      platform,
      backtests: rules.length,
      secondsEach: { p50: sorted[Math.floor(sorted.length / 2)] as number, p95: sorted[Math.floor(sorted.length * 0.95)] as number },
      figureQueries: queries / rules.length,
      figureRequests: figureRequests / rules.length,
      upstream: upstream / rules.length,
      actions,
    });
  }
  return { platforms, compareTo: await compareToCost() };
}

/** The evaluator's CPU on rules with a compared condition against the same rules without the comparison, pair by pair. */
async function compareToCost(): Promise<{ ratio: number; spread: string }> {
  const { evaluateRule } = await import('../functions/use-cases/rules/rule-evaluation.ts');
  const today = new Date().toISOString().slice(0, 10);
  const dayOf = (back: number) => new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
  const byCampaign = new Map(
    Array.from({ length: CAMPAIGNS }, (_, campaign) => [
      String(campaign),
      Array.from({ length: 30 }, (_, back) => ({
        date: dayOf(30 - back),
        impressions: String(1000 + ((campaign * 7 + back * 13) % 500)),
        clicks: String(20 + ((campaign + back) % 30)),
        spend: `${10 + ((campaign * 3 + back) % 40)}.${String((campaign + back) % 100).padStart(2, '0')}`,
        conversions: String((campaign + back) % 4),
        conversionValue: '0',
      })),
    ]),
  );
  const windows = ['LAST_3_DAYS', 'LAST_7_DAYS', 'LAST_14_DAYS'] as const;
  const metricsFor = () => ({
    facts: { currency: 'USD', timeZone: 'UTC' },
    today,
    byWindow: new Map(windows.map((window) => [window, byCampaign])),
    totals: new Map(),
  });
  const rules = (compared: boolean) =>
    Array.from({ length: RULES }, (_, index) => ({
      campaignIds: Array.from({ length: CAMPAIGNS_PER_RULE }, (_, offset) => String((index * 5 + offset) % CAMPAIGNS)),
      conditions: [
        { metric: 'cpc' as const, operator: '>' as const, value: 0.5, window: 'LAST_7_DAYS' as const },
        compared
          ? { metric: 'cpc' as const, operator: '>' as const, value: 20, window: 'LAST_3_DAYS' as const, compareTo: { window: 'LAST_14_DAYS' as const } }
          : { metric: 'cpc' as const, operator: '>' as const, value: 0.5, window: 'LAST_3_DAYS' as const },
      ],
    }));
  const [plain, compared] = [rules(false), rules(true)];
  // a run's metrics: sums made once per (window, campaign) for the group, as a run makes them
  const cpu = (group: typeof plain) => {
    const start = process.cpuUsage();
    for (let round = 0; round < 5; round++) {
      const metrics = metricsFor();
      for (const rule of group) evaluateRule(rule, metrics);
    }
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  cpu(plain);
  cpu(compared);
  const ratios: number[] = [];
  for (let pair = 0; pair < 7; pair++) ratios.push(cpu(compared) / cpu(plain));
  ratios.sort((a, b) => a - b);
  return { ratio: ratios[3] as number, spread: `${(ratios[0] as number).toFixed(2)}–${(ratios[6] as number).toFixed(2)}` };
}
