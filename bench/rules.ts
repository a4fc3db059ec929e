import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { RuleRunMessage } from '../functions/use-cases/rules/rule-runs.ts';
import type { LocalStack } from '../local/stack.ts';
import { DEMO_CONNECTIONS } from '../local/sandbox/demo-data.ts';

/**
 * `npm run bench -- rules`: 10,000 rules over 50,000 campaigns in 2,000 (user, platform) groups (20
 * tenants of 100 users) against the sandboxes of an in-process local stack. One scheduler pass and every group's run are made in this
 * process as the functions make them (the queue left out: the message goes straight to the run), with
 * the store's commands and the sandboxes' requests counted. Then the evaluator's own CPU: every rule of
 * every group judged in memory over the metrics its run read, against a bare loop that sums the same
 * days and compares the same values, pair by pair.
 */
const GROUPS = Number(process.env.BENCH_RULE_GROUPS ?? 2_000);
const CAMPAIGNS_PER_GROUP = 25;
const RULES_PER_GROUP = 5;
const USERS_PER_TENANT = 100;
const PLATFORMS = ['social', 'searchads', 'professional'] as const;
const context = { getRemainingTimeInMillis: () => 300_000, awsRequestId: 'bench' } as unknown as Context;

export interface RulesFigures {
  groups: number;
  rules: number;
  campaigns: number;
  /** reader queries and the requests they made, per group: lowest and highest over the groups */
  metricReadsPerGroup: { queries: [number, number]; requests: [number, number]; windowsPerGroup: number };
  upstreamPerGroup: number;
  store: { schedule: { reads: number; writes: number }; run: { reads: number; writes: number } };
  evaluatorRulesPerCpuSecond: number;
  bareRulesPerCpuSecond: number;
  ratio: { median: number; spread: string };
  wallSeconds: number;
}

const accountOf = (platform: (typeof PLATFORMS)[number], index: number) =>
  platform === 'social' ? String(1_700_000_000_000_000 + index) : platform === 'searchads' ? String(7_100_000_000 + index) : String(710_000_000 + index);

const connectionOf = (platform: (typeof PLATFORMS)[number], account: string) =>
  platform === 'social'
    ? { social: { accessToken: DEMO_CONNECTIONS.social.accessToken, adAccountId: account, pageId: DEMO_CONNECTIONS.social.pageId } }
    : platform === 'searchads'
      ? { searchads: { refreshToken: DEMO_CONNECTIONS.searchads.refreshToken, customerId: account } }
      : { professional: { accessToken: DEMO_CONNECTIONS.professional.accessToken, adAccountId: account } };

export async function rulesBench(stack: LocalStack): Promise<RulesFigures> {
  const { clock } = await import('../shared/core/clock.ts');
  const { documentStore } = await import('../shared/store/client.ts');
  const { createApiKey } = await import('../shared/store/api-keys.ts');
  const { findTenantIdByKeyHash, hashApiKey } = await import('../shared/store/api-key-lookup.ts');
  const { createRule } = await import('../shared/store/rule-writes.ts');
  const { scheduleDueRules } = await import('../functions/use-cases/rules/rule-schedule.ts');
  const { runRuleGroup } = await import('../functions/use-cases/rules/rule-runs.ts');
  const { platformAdapters: rulePlatforms } = await import('../shared/platforms/registry.ts');
  const { evaluateRule, readGroupMetrics } = await import('../functions/use-cases/rules/rule-evaluation.ts');
  const { findUser } = await import('../shared/store/users.ts');

  // every command the store sends, by kind (a transaction counts its items)
  const counted = { reads: 0, writes: 0 };
  documentStore().middlewareStack.add(
    (next, info) => async (args) => {
      const name = (info as { commandName?: string }).commandName ?? '';
      const input = args.input as { TransactItems?: unknown[] };
      if (/^(Get|Query|Scan|BatchGet)/.test(name)) counted.reads++;
      else if (name === 'TransactWriteItemsCommand') counted.writes += input.TransactItems?.length ?? 1;
      else if (/^(Put|Update|Delete)/.test(name)) counted.writes++;
      return next(args);
    },
    { step: 'initialize', name: 'benchCounter' },
  );
  const take = () => {
    const taken = { ...counted };
    counted.reads = 0;
    counted.writes = 0;
    return taken;
  };
  const recorded = async () => {
    let total = 0;
    for (const sandbox of Object.values(stack.sandboxes))
      total += ((await (await fetch(`${sandbox?.url}/__sandbox/requests?count=1`)).json()) as { count: number }).count;
    return total;
  };

  // 100 users a tenant, as marketing products have: each tenant's quota share is its own
  const tenants: Array<{ apiKey: string; tenantId: string }> = [];
  for (let index = 0; index < Math.ceil(GROUPS / USERS_PER_TENANT); index++) {
    const { apiKey } = await createApiKey(`bench-rules-${randomBytes(4).toString('hex')}`);
    tenants.push({ apiKey, tenantId: (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string });
  }
  const ours = new Set(tenants.map((tenant) => tenant.tenantId));
  const started = performance.now();
  const now = new Date(clock.now()).toISOString();
  const groups: Array<{ platform: (typeof PLATFORMS)[number]; userId: string }> = [];
  for (let index = 0; index < GROUPS; index += 10) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, offset) => {
        const group = index + offset;
        const platform = PLATFORMS[group % PLATFORMS.length] as (typeof PLATFORMS)[number];
        const account = accountOf(platform, group);
        const seeded = await fetch(`${stack.sandboxes[platform]?.url}/__sandbox/campaigns`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account, count: CAMPAIGNS_PER_GROUP }),
        });
        const { ids } = (await seeded.json()) as { ids: string[] };
        const userId = `bench-${group}`;
        const { apiKey, tenantId } = tenants[Math.floor(group / USERS_PER_TENANT)] as { apiKey: string; tenantId: string };
        const created = await fetch(`${stack.url}/users/create_user`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ userId, connections: connectionOf(platform, account) }),
        });
        if (created.status !== 200) throw new Error(`create_user: ${await created.text()}`);
        for (let rule = 0; rule < RULES_PER_GROUP; rule++) {
          const campaignIds = ids.slice(rule * 5, rule * 5 + 5);
          await createRule(
            tenantId,
            {
              ruleId: `rul_${randomBytes(12).toString('hex')}`,
              userId,
              platform,
              name: `Bench ${rule}`,
              campaignIds,
              // two windows per group; thresholds no sandbox day reaches, so the runs judge and never act
              conditions: [
                { metric: 'spend', operator: '>', value: 1_000_000, window: rule % 2 === 0 ? 'LAST_7_DAYS' : 'YESTERDAY' },
                { metric: 'ctr', operator: '<', value: 0.5, window: 'LAST_7_DAYS' },
              ],
              action: { type: 'PAUSE' },
              schedule: 'HOURLY',
              cooldownHours: 24,
              enabled: true,
              createdAt: now,
              updatedAt: now,
              nextRunAt: now,
              consecutiveFailedRuns: 0,
            },
            undefined,
          );
        }
        groups[group] = { platform, userId };
      }),
    );
  }

  take();
  const messages: RuleRunMessage[] = [];
  const scheduled = await scheduleDueRules(async (message) => {
    if (ours.has(message.tenantId)) messages.push(message);
  }, clock.now() + 1);
  const scheduleStore = take();
  const upstreamBefore = await recorded();
  // each reader call, and the requests it made, by group (each group is an ad account of its own)
  const queriesByGroup = new Map<string, { queries: number; requests: number }>();
  let counting = true;
  for (const platform of Object.values(rulePlatforms)) {
    const reader = platform.metrics;
    const read = reader.read.bind(reader);
    reader.read = async (session, campaignIds, range) => {
      const answer = await read(session, campaignIds, range);
      if (!counting) return answer;
      const of = session as { connection?: { adAccountId: string }; customerId?: string; adAccountId?: string };
      const account = of.connection?.adAccountId ?? of.customerId ?? of.adAccountId ?? '';
      const group = queriesByGroup.get(account) ?? { queries: 0, requests: 0 };
      queriesByGroup.set(account, { queries: group.queries + 1, requests: group.requests + answer.requests });
      return answer;
    };
  }
  for (let index = 0; index < messages.length; index += 8) {
    await Promise.all(
      messages.slice(index, index + 8).map(async (message) => {
        await runRuleGroup(message, rulePlatforms[message.platform], context);
      }),
    );
  }
  const runStore = take();
  counting = false;
  const upstream = (await recorded()) - upstreamBefore;
  // the evaluator's CPU: judging every rule over the metrics its run read, against a bare loop
  const samples: Array<{ rules: Parameters<typeof evaluateRule>[0][]; metrics: Awaited<ReturnType<typeof readGroupMetrics>> }> = [];
  for (const message of messages.slice(0, 300)) {
    const user = await findUser(message.tenantId, message.userId);
    if (!user) continue;
    const platform = rulePlatforms[message.platform];
    const session = platform.session(user, context);
    const { findRuleItem } = await import('../shared/store/rules.ts');
    const rules = (await Promise.all(message.rules.map((rule) => findRuleItem(message.tenantId, message.userId, rule.ruleId)))).filter(
      (rule) => rule !== undefined,
    );
    samples.push({ rules, metrics: await readGroupMetrics(platform, session, rules) });
  }
  const judgedRules = samples.reduce((total, sample) => total + sample.rules.length, 0);
  const cpuOf = (work: () => void) => {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1e6;
  };
  const evaluator = () => {
    for (const sample of samples) for (const rule of sample.rules) evaluateRule(rule, sample.metrics);
  };
  const bare = () => {
    let matched = 0;
    for (const sample of samples)
      for (const rule of sample.rules)
        for (const campaignId of rule.campaignIds) {
          let holds = true;
          for (const condition of rule.conditions) {
            const days = sample.metrics.byWindow.get(condition.window)?.get(campaignId) ?? [];
            let spend = 0;
            let clicks = 0;
            let impressions = 0;
            for (const day of days) {
              spend += Number(day.spend);
              clicks += Number(day.clicks);
              impressions += Number(day.impressions);
            }
            const value = condition.metric === 'spend' ? spend : impressions > 0 ? clicks / impressions : Number.NaN;
            holds &&= condition.operator === '>' ? value > condition.value : value < condition.value;
          }
          if (holds) matched++;
        }
    return matched;
  };
  const ROUNDS = 20;
  const evaluatorCpu: number[] = [];
  const bareCpu: number[] = [];
  for (let round = 0; round < 3; round++) {
    evaluator();
    bare();
  }
  for (let pair = 0; pair < 7; pair++) {
    evaluatorCpu.push(cpuOf(() => Array.from({ length: ROUNDS }, evaluator)));
    bareCpu.push(cpuOf(() => Array.from({ length: ROUNDS }, bare)));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const ratios = evaluatorCpu.map((value, index) => value / (bareCpu[index] as number)).sort((a, b) => a - b);

  return {
    groups: messages.length,
    rules: scheduled.rules,
    campaigns: GROUPS * CAMPAIGNS_PER_GROUP,
    metricReadsPerGroup: {
      queries: [
        Math.min(...[...queriesByGroup.values()].map((group) => group.queries)),
        Math.max(...[...queriesByGroup.values()].map((group) => group.queries)),
      ],
      requests: [
        Math.min(...[...queriesByGroup.values()].map((group) => group.requests)),
        Math.max(...[...queriesByGroup.values()].map((group) => group.requests)),
      ],
      windowsPerGroup: 2,
    },
    upstreamPerGroup: upstream / messages.length,
    store: {
      schedule: { reads: scheduleStore.reads / scheduled.rules, writes: scheduleStore.writes / scheduled.rules },
      run: { reads: runStore.reads / scheduled.rules, writes: runStore.writes / scheduled.rules },
    },
    evaluatorRulesPerCpuSecond: (judgedRules * ROUNDS) / median(evaluatorCpu),
    bareRulesPerCpuSecond: (judgedRules * ROUNDS) / median(bareCpu),
    ratio: { median: median(ratios), spread: `${(ratios[0] as number).toFixed(2)}–${(ratios.at(-1) as number).toFixed(2)}` },
    wallSeconds: (performance.now() - started) / 1000,
  };
}
