import * as z from 'zod';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';
import { ruleRunSchema } from '../../shared/schemas/rules.ts';
import { listRuleRunsRequest } from './schema.ts';

const ruleRunsResultSchema = z.object({ runs: z.array(ruleRunSchema), paging: pagingSchema });
import { EVALUATION_EXAMPLE as EVALUATION } from '../../shared/schemas/rule-examples.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List a rule’s runs',
  description:
    'The rule’s execution log, newest first, 20 a page, kept 90 days: each run’s evaluations (metrics and verdict per campaign) and actions (`applied`, `skipped` or `failed`, with the reason or the error). A run is `partial` when it stopped at the tenant’s share of the platform’s daily calls (it goes on at the next pass).',
  tag: 'Optimization',
  request: listRuleRunsRequest,
  result: ruleRunsResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4' },
  resultExample: {
    runs: [
      {
        runId: 'run_1764061200000_5f0c1b2a3d4e5f60718293a4',
        ruleId: 'rul_5f0c1b2a3d4e5f60718293a4',
        startedAt: `${day(0)}T09:00:01.000Z`,
        finishedAt: `${day(0)}T09:00:02.000Z`,
        status: 'completed' as const,
        evaluations: [EVALUATION],
        actions: [{ campaignId: '120210987000000100', type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED', outcome: 'applied' as const }],
      },
    ],
    paging: {},
  },
};
