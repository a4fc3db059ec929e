import type { Context } from 'aws-lambda';
import type { User } from '../store/users.ts';
import type { CampaignControl } from './campaign-control.ts';
import type { CampaignMetricsReader } from './campaign-metrics.ts';
import type { ConnectFlow } from './connect-flow.ts';
import type { ConversionDestinations } from './conversions.ts';

/**
 * What each platform offers the capabilities that work on all three, one module a platform
 * (shared/platforms/<platform>/index.ts); registry.ts gathers them. A new platform is a folder with
 * that index, one entry in PLATFORMS (shared/core/errors.ts) and one in the registry.
 */
export interface PlatformAdapter<Session = unknown> {
  /** the hosted connect round trip: consent, code exchange, accounts, revocation */
  connect: ConnectFlow;
  /** the session a call on the user's connection uses (a 409 when the user is not connected) */
  session(user: User, context: Context): Session;
  /** pause, resume, delete and re-budget one campaign */
  control: CampaignControl<Session>;
  /** many campaigns' metrics, for rules */
  metrics: CampaignMetricsReader<Session>;
  /** where the user's CRM outcomes can go (docs/conversions.md) */
  conversions: ConversionDestinations<Session>;
  /** a check before any metrics read (the professional network's reporting scope) */
  canReadMetrics?(user: User): void;
}
