import type { Platform } from '../core/errors.ts';
import type { ConsentSide } from './connect-flow.ts';
import { professionalConsent } from './professional/consent.ts';
import { searchadsConsent } from './searchads/consent.ts';
import { socialConsent } from './social/consent.ts';

/**
 * Where a connect link sends the person, by platform: each platform's consent side alone, so the
 * function that starts a link (connect_start) bundles no platform's client. The rest of the round
 * trip is each adapter's `connect` (registry.ts), which spreads the same consent side.
 */
export const CONSENTS: Record<Platform, ConsentSide> = {
  social: socialConsent,
  searchads: searchadsConsent,
  professional: professionalConsent,
};
