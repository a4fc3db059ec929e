import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { ruleResultSchema } from '../../shared/schemas/rules.ts';
import { createRuleRequest } from './schema.ts';
import { RULE_EXAMPLE as RULE } from '../../shared/schemas/rule-examples.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['CAMPAIGN_NOT_FOUND'],
  summary: 'Create a rule',
  description:
    'A rule watches 1–100 campaigns of the user on one platform and acts when all its conditions (1–5: a metric over a window, compared with a value) hold: pause, activate, set or change the daily budget (budget actions need both bounds and never leave them). It runs HOURLY or DAILY, the first time at once; after acting on a campaign it waits `cooldownHours` (default 24) before acting on it again. At most 100 rules a user (409 RULE_LIMIT_REACHED).',
  tag: 'Optimization',
  request: createRuleRequest,
  result: ruleResultSchema,
  requestExample: {
    userId: 'demo-user',
    platform: 'social',
    name: 'Pause spenders without leads',
    campaignIds: ['120210987000000100'],
    conditions: [
      { metric: 'spend', operator: '>', value: 50, window: 'LAST_3_DAYS' },
      { metric: 'conversions', operator: '<', value: 1, window: 'LAST_3_DAYS' },
    ],
    action: { type: 'PAUSE' },
    schedule: 'HOURLY',
  },
  resultExample: { rule: RULE },
};
