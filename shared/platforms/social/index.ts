import type { PlatformAdapter } from '../adapter.ts';
import { socialConversionDestinations } from './conversion-datasets.ts';
import { socialCampaignMetrics } from './campaign-metrics.ts';
import { socialCampaignControl } from './campaign-control.ts';
import { socialConnectFlow } from './connect.ts';
import { socialSession } from './session.ts';

/** The social platform's adapter (shared/platforms/adapter.ts). */
export const socialPlatform: PlatformAdapter<ReturnType<typeof socialSession>> = {
  connect: socialConnectFlow,
  session: socialSession,
  control: socialCampaignControl,
  conversions: socialConversionDestinations,
  metrics: socialCampaignMetrics,
};
