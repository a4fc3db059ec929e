import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { professionalLaunchRequest, professionalLaunchResult } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Launch a whole professional-network campaign: campaign group, campaign and a sponsored-content creative per ad, all or nothing',
  description:
    'Reads the user’s ad account once (currency, status, holds, the organization it advertises for) and each of the ads’ images and videos once; what those show is wrong (a budget with more decimals than the currency or below its minimum, media the platform does not know, another organization owns or could not process) is 400 INVALID_REQUEST with nothing made, as are the combinations the platform refuses (a cost type the objective’s bidding does not take, LEAD_GENERATION without its lead form, images and videos mixed, texts over the platform’s lengths). `validateOnly: true` answers `{valid, issues, checkedBy: "service"}`: the platform has no dry run, so these are our checks and the account’s. Otherwise the answer is `{jobId, status: queued}` at once: the job (`campaign_launch`, /jobs/get_job) makes the campaign group, the campaign (with the daily budget, targeting, locale and political-intent declaration) and one creative with its post per entry of `ads` (authored by the account’s organization unless `organizationId` is given), all DRAFT, the only state the platform deletes. `activate: true` turns them on last, group, creatives, then campaign; update_campaign_status ACTIVE does the same later. Each object is recorded before the next call, so the job never makes one twice; a create whose answer was lost is read back by its exact name under its parent before anything else. A refusal that retrying cannot mend deletes what was made, newest first, and the job ends `failed` with the platform’s code and message, `rolledBack` and `orphans`. Throttling parks the job (60 s, doubling up to an hour). The end is announced by `campaign_launch.succeeded` / `campaign_launch.failed`. `Idempotency-Key` replays answer the same job.',
  tag: 'Launching campaigns',
  refusals: ['ACCOUNT_NOT_ELIGIBLE', 'SCOPE_MISSING'],
  request: professionalLaunchRequest,
  result: professionalLaunchResult,
  requestExample: {
    userId: 'demo-user',
    name: 'Q1 webinar · IT leaders',
    objective: 'WEBSITE_VISITS',
    dailyBudget: '50.00',
    targeting: { locations: ['urn:li:geo:103644278'], seniorities: ['urn:li:seniority:6'] },
    ads: [
      {
        name: 'Webinar · hero',
        imageId: 'urn:li:image:D4E10AQSandboxImg000001',
        commentary: 'Join our live webinar on zero-downtime migrations.',
        headline: 'Save your seat',
        link: 'https://www.example.com/webinar',
        callToAction: 'REGISTER',
      },
    ],
  },
  resultExample: { jobId: 'job_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f', status: 'queued' },
};
