import type { Platform } from '../core/errors.ts';
import type { ConnectFlow } from '../platforms/connect-flow.ts';
import { platformAdapters } from '../platforms/registry.ts';

/** Each platform's connect round trip, from the platform registry. */
export const connectFlows = Object.fromEntries(Object.entries(platformAdapters).map(([platform, adapter]) => [platform, adapter.connect])) as Record<
  Platform,
  ConnectFlow
>;
