import type { User } from '../../../shared/store/users.ts';
import { professionalLeadSource } from '../platforms/professional/lead-source.ts';
import { socialLeadSource } from '../platforms/social/lead-source.ts';
import { type LeadPlatform, type LeadSource, leadTargetThrough } from './lead-source.ts';

export type { LeadPlatform, LeadSource } from './lead-source.ts';

/** Every platform whose leads the service takes, by name. */
export const LEAD_SOURCES: Record<LeadPlatform, LeadSource> = { social: socialLeadSource, professional: professionalLeadSource };

/** The user's connection for a platform's leads (leadTargetThrough, by the platform's name). */
export const leadTargetOf = (user: User, platform: LeadPlatform): string => leadTargetThrough(user, LEAD_SOURCES[platform]);
