import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/min';
import { normalizeEmail, normalizePhone } from '../audiences/normalize.ts';
import { sha256Hex } from '../audiences/sha256.ts';
import type { ProfessionalUser } from '../platforms/professional/conversion-events.ts';
import type { SocialUserData } from '../platforms/social/conversion-events.ts';
import type { NormalizedLead } from '../schemas/leads.ts';

/**
 * What each platform matches a lead's conversion on (docs/conversions.md, "Identifiers"), worked out
 * from the stored lead when its outcome is reported, hashed there and then: only these hashes (and
 * the platform's own lead id) are stored with the conversion, never a value as the person typed it.
 * The e-mail and phone rules are the audiences' (shared/audiences/normalize.ts), where they agree.
 */

/** The social platform's `user_data` of a lead: its lead id in clear, the e-mail and phone hashed. */
export function socialUserDataOfLead(lead: NormalizedLead): SocialUserData {
  const user: SocialUserData = {};
  if (/^\d{1,20}$/.test(lead.leadId)) user.lead_id = lead.leadId;
  const { email, phone, country } = lead.fields;
  if (email) {
    const normalized = normalizeEmail(email);
    if ('value' in normalized) user.em = [sha256Hex(normalized.value)];
  }
  if (phone) {
    const code = country ? countryCode(country) : undefined;
    const normalized = normalizePhone(phone, code ? { country: code } : NO_COUNTRY);
    if ('value' in normalized) user.ph = [sha256Hex(normalized.value)];
  }
  return user;
}

const NO_COUNTRY = {};

/** The network's e-mail rule: trimmed, lower case, every whitespace removed. */
export const professionalEmailHash = (email: string) => sha256Hex(email.trim().toLowerCase().replace(/\s+/g, ''));

/** The professional network's `user` of a lead: the lead-form response URN, and the e-mail hashed (`userIds` always present). */
export function professionalUserOfLead(lead: NormalizedLead): ProfessionalUser {
  return {
    userIds: lead.fields.email ? [{ idType: 'SHA256_EMAIL', idValue: professionalEmailHash(lead.fields.email) }] : [],
    lead: `urn:li:leadGenFormResponse:${lead.leadId}`,
  };
}

/** A country as the lead's form gave it, as an ISO code when it is one (a phone's national number needs it). */
function countryCode(country: string): CountryCode | undefined {
  const code = country.trim().toUpperCase();
  return isSupportedCountry(code) ? code : undefined;
}
