import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { backfillLeadsRequest, backfillStartedSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Backfill leads',
  description:
    'A job (`leads_backfill`, followed with get_job and its end webhook) that reads the leads of the user\u2019s Page or ad account since `since` and delivers each one not delivered yet as `lead.received`.',
  tag: 'Leads',
  request: backfillLeadsRequest,
  result: backfillStartedSchema,
  refusals: ['SCOPE_MISSING'],
  requestExample: { userId: 'demo-user', platform: 'social', since: `${day(-14)}T00:00:00Z` },
  resultExample: { jobId: 'job_0123456789abcdef0123456789abcdef', status: 'queued' },
};
