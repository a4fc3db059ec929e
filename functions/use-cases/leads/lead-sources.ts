import { PlatformNotConnected, ScopeMissing } from '../../../shared/core/errors.ts';
import type { User } from '../../../shared/store/users.ts';
import { professionalLeadSource } from '../platforms/professional/lead-source.ts';
import { socialLeadSource } from '../platforms/social/lead-source.ts';
import type { LeadPlatform, LeadSource } from './lead-source.ts';

export type { LeadPlatform, LeadSource } from './lead-source.ts';

/** Every platform whose leads the service takes, by name. */
export const LEAD_SOURCES: Record<LeadPlatform, LeadSource> = { social: socialLeadSource, professional: professionalLeadSource };

/**
 * The user's connection for leads: connected, granted what leads need (a connection given as raw
 * tokens names no scopes and is taken to hold them until the platform refuses), reaching a target.
 */
export function leadTargetOf(user: User, platform: LeadPlatform): string {
  const source = LEAD_SOURCES[platform];
  const connection = user.connections[platform];
  if (!connection) throw new PlatformNotConnected(platform);
  const granted = connection.scopes?.split(/[ ,]+/);
  const missing = granted ? source.scopes.filter((scope) => !granted.includes(scope)) : [];
  if (missing.length > 0) throw new ScopeMissing(platform, missing.join(', '));
  const target = source.targetOf(user);
  if (!target)
    throw new PlatformNotConnected(
      platform,
      `The user’s ${platform} connection names no ${platform === 'social' ? 'Page' : 'ad account'}; connect one to take its leads.`,
    );
  return target;
}
