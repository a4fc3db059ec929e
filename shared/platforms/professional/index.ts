import type { PlatformAdapter } from '../adapter.ts';
import { professionalConversionDestinations } from './conversion-rules.ts';
import { checkReportingScope } from './analytics.ts';
import { professionalCampaignMetrics } from './campaign-metrics.ts';
import { professionalCampaignControl } from './campaign-control.ts';
import { professionalConnectFlow } from './connect.ts';
import { professionalSession } from './session.ts';

/** The professional network's adapter (shared/platforms/adapter.ts). */
export const professionalPlatform: PlatformAdapter<ReturnType<typeof professionalSession>> = {
  connect: professionalConnectFlow,
  session: professionalSession,
  control: professionalCampaignControl,
  conversions: professionalConversionDestinations,
  metrics: professionalCampaignMetrics,
  canReadMetrics: (user) => checkReportingScope(user.connections.professional?.scopes),
};
