import { checkReportingScope } from '../../shared/platforms/professional/analytics.ts';
import { professionalCampaignMetrics } from '../../shared/platforms/professional/campaign-metrics.ts';
import { professionalCampaignControl } from '../../shared/platforms/professional/campaign-control.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { searchadsCampaignMetrics } from '../../shared/platforms/searchads/campaign-metrics.ts';
import { searchadsCampaignControl } from '../../shared/platforms/searchads/campaign-control.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { socialCampaignMetrics } from '../../shared/platforms/social/campaign-metrics.ts';
import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import type { RulePlatform, RulePlatforms } from './rule-evaluation.ts';

/** What the optimizer uses of each platform: its campaign control, its many-campaign reader, its session. */
export const rulePlatforms: RulePlatforms = {
  social: { control: socialCampaignControl, metrics: socialCampaignMetrics, session: socialSession } as RulePlatform<unknown>,
  searchads: { control: searchadsCampaignControl, metrics: searchadsCampaignMetrics, session: searchadsSession } as RulePlatform<unknown>,
  professional: {
    control: professionalCampaignControl,
    metrics: professionalCampaignMetrics,
    session: professionalSession,
    canRead: (user) => checkReportingScope(user.connections.professional?.scopes),
  } as RulePlatform<unknown>,
};
