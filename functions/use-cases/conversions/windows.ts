import { clock } from '../../../shared/core/clock.ts';
import type { ProfessionalConversionEvent } from '../../../shared/platforms/professional/conversion-events.ts';
import type { SearchadsConversionEvent } from '../../../shared/platforms/searchads/conversion-events.ts';
import type { SocialServerEvent } from '../../../shared/platforms/social/conversion-events.ts';

/**
 * What each platform takes, decided before anything is sent (docs/conversions.md, "Before sending"):
 * how old an event may be (one older event makes the social platform refuse its whole request), and
 * what it can match an event on.
 */
export const CONVERSION_WINDOW_DAYS = { social: 7, professional: 90, searchads: 90 } as const;
const FUTURE_TOLERANCE_MS = 5 * 60_000;

export const outcomeTooFarAhead = (occurredAtMs: number) => occurredAtMs > clock.now() + FUTURE_TOLERANCE_MS;

/** Older than the platform's window, or than a shorter one of the destination's own (a search-ads action's click-through window). */
export function expired(platform: keyof typeof CONVERSION_WINDOW_DAYS, occurredAtMs: number, destinationDays?: number): boolean {
  const days = Math.min(CONVERSION_WINDOW_DAYS[platform], destinationDays ?? Number.POSITIVE_INFINITY);
  return occurredAtMs < clock.now() - days * 86_400_000;
}

/** Social: a lead id, an e-mail, a phone, or a click cookie; professional: a lead, an e-mail or a first-party tracking id; search ads: a click id, an e-mail or a phone. */
export function hasIdentifier(
  platform: 'social' | 'professional' | 'searchads',
  event: SocialServerEvent | ProfessionalConversionEvent | SearchadsConversionEvent,
): boolean {
  if (platform === 'searchads') {
    const { userIdentifiers, adIdentifiers } = event as SearchadsConversionEvent;
    return userIdentifiers.some((id) => 'emailAddress' in id || 'phoneNumber' in id) || Object.keys(adIdentifiers ?? {}).length > 0;
  }
  if (platform === 'social') {
    const user = (event as SocialServerEvent).user_data as Record<string, unknown>;
    return ['lead_id', 'em', 'ph', 'fbc', 'fbp'].some((key) => user[key] !== undefined);
  }
  const { user } = event as ProfessionalConversionEvent;
  return Boolean(user.lead) || user.userIds.length > 0;
}
