import type { Platform } from '../core/errors.ts';
import { professionalConnectFlow } from '../platforms/professional/connect.ts';
import { searchadsConnectFlow } from '../platforms/searchads/connect.ts';
import { socialConnectFlow } from '../platforms/social/connect.ts';
import type { ConnectFlow } from '../platforms/connect-flow.ts';

export const connectFlows: Record<Platform, ConnectFlow> = {
  social: socialConnectFlow,
  searchads: searchadsConnectFlow,
  professional: professionalConnectFlow,
};
