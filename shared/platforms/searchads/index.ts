import type { PlatformAdapter } from '../adapter.ts';
import { searchadsConversionDestinations } from './conversion-actions.ts';
import { searchadsCampaignMetrics } from './campaign-metrics.ts';
import { searchadsCampaignControl } from './campaign-control.ts';
import { searchadsSession } from './client.ts';
import { searchadsConnectFlow } from './connect.ts';

/** The search-ads platform's adapter (shared/platforms/adapter.ts). */
export const searchadsPlatform: PlatformAdapter<ReturnType<typeof searchadsSession>> = {
  connect: searchadsConnectFlow,
  session: searchadsSession,
  control: searchadsCampaignControl,
  conversions: searchadsConversionDestinations,
  metrics: searchadsCampaignMetrics,
};
