import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { socialLaunchRequest, socialLaunchResult } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Launch a whole social campaign: campaign, ad set, a creative and an ad per ad, all or nothing',
  description:
    'Reads the user’s ad account once (currency, smallest daily budget, status) and the ads’ images; what those show is wrong (a budget with more decimals than the currency, below the account’s minimum, an image the account lacks) is 400 INVALID_REQUEST with nothing made. `validateOnly: true` runs the platform’s own dry run of the campaign and of each creative and answers `{valid, issues}`; nothing is made and no job exists. Otherwise the answer is `{jobId, status: queued}` at once: the job (`campaign_launch`, /jobs/get_job) makes the campaign PAUSED with the daily budget on it (so edit_campaign and rules can change it), one ad set ACTIVE under it with the targeting and the objective’s optimization goal, then a creative and an ACTIVE ad per entry of `ads`; the campaign’s status is the one switch (`activate: true` turns it on last; update_campaign_status ACTIVE does later). Each object the platform makes is recorded before the next call, so the job never makes one twice; a create whose answer was lost is read back by its exact name before anything else. A refusal that retrying cannot mend deletes what was made, newest first, and the job ends `failed` with the platform’s code, subcode, title and message, `rolledBack` and `orphans`. Throttling parks the job; it is not a failure. The end is announced by `campaign_launch.succeeded` / `campaign_launch.failed`. `Idempotency-Key` replays answer the same job.',
  tag: 'Launching campaigns',
  refusals: ['ACCOUNT_NOT_ELIGIBLE'],
  request: socialLaunchRequest,
  result: socialLaunchResult,
  requestExample: {
    userId: 'demo-user',
    name: 'Winter Tune-Up 2026',
    objective: 'TRAFFIC',
    dailyBudget: '50',
    targeting: { locations: [{ key: 'US', type: 'country' }], ageMin: 25 },
    ads: [
      {
        name: 'Tune-up · hero',
        imageId: '53599e92b82cb16dc38bd65259fff0ea',
        primaryText: 'Beat the first cold snap: book a furnace tune-up this week.',
        headline: 'Furnace tune-up from $89',
        link: 'https://www.example.com/winter-tune-up',
        callToAction: 'LEARN_MORE',
      },
    ],
  },
  resultExample: { jobId: 'job_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f', status: 'queued' },
};
