import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/min';
import { googleEmail, googleFamilyName, googleGivenName, googlePhone } from '../audiences/google-members.ts';
import { normalizeCountry, normalizeEmail, normalizeName, normalizePhone, normalizeZip, type RowContext } from '../audiences/normalize.ts';
import { sha256Hex } from '../audiences/sha256.ts';
import type { ProfessionalUser } from '../platforms/professional/conversion-events.ts';
import type { SearchadsEventIdentifiers } from '../platforms/searchads/conversion-events.ts';
import type { SocialUserData } from '../platforms/social/conversion-events.ts';
import { professionalEmailHash } from './identifiers.ts';

/**
 * What each platform matches a CRM contact's conversion on (docs/conversions.md, "Identifiers"), from
 * the values `/conversions/send` received, hashed at once by each platform's rules: only these hashes
 * and the click ids (never hashed, as every platform wants them) are kept, never a value as the CRM
 * sent it. A value a platform's rule cannot read is left out for that platform, not guessed.
 */
export interface ContactValues {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  country?: string;
  postalCode?: string;
  clickIds?: { fbc?: string; fbp?: string; gclid?: string; gbraid?: string; wbraid?: string; liFatId?: string };
}

const normalizedValue = (normalized: { value: string } | { invalid: string }) => ('value' in normalized ? normalized.value : undefined);
const hashed = (value: string | undefined) => (value === undefined ? undefined : [sha256Hex(value)]);

function contextOf(contact: ContactValues): RowContext {
  const code = contact.country?.trim().toUpperCase();
  return code && isSupportedCountry(code) ? { country: code as CountryCode } : {};
}

/** Social: e-mail, phone (digits with the country code), names, postal code and country hashed; the click cookies in clear. */
export function socialUserDataOfContact(contact: ContactValues): SocialUserData {
  const context = contextOf(contact);
  const fields: SocialUserData = {
    em: hashed(contact.email === undefined ? undefined : normalizedValue(normalizeEmail(contact.email))),
    ph: hashed(contact.phone === undefined ? undefined : normalizedValue(normalizePhone(contact.phone, context))),
    fn: hashed(contact.firstName === undefined ? undefined : normalizedValue(normalizeName(contact.firstName, 'FN'))),
    ln: hashed(contact.lastName === undefined ? undefined : normalizedValue(normalizeName(contact.lastName, 'LN'))),
    zp: hashed(contact.postalCode === undefined ? undefined : normalizedValue(normalizeZip(contact.postalCode, context))),
    country: hashed(contact.country === undefined ? undefined : normalizedValue(normalizeCountry(contact.country))),
    fbc: contact.clickIds?.fbc,
    fbp: contact.clickIds?.fbp,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as SocialUserData;
}

/**
 * Professional: the e-mail hashed and the first-party tracking id. Names are not sent: the pinned
 * version takes them only in clear, and no value is kept in clear (docs/conversions.md).
 */
export function professionalUserOfContact(contact: ContactValues): ProfessionalUser {
  const userIds: ProfessionalUser['userIds'] = [];
  if (contact.email !== undefined && 'value' in normalizeEmail(contact.email))
    userIds.push({ idType: 'SHA256_EMAIL', idValue: professionalEmailHash(contact.email) });
  if (contact.clickIds?.liFatId) userIds.push({ idType: 'LINKEDIN_FIRST_PARTY_ADS_TRACKING_UUID', idValue: contact.clickIds.liFatId });
  return { userIds };
}

/** Search ads: e-mail (gmail rule) and phone (E.164 with +) hashed, the address only when all four parts are known, the click ids in clear. */
export function searchadsIdentifiersOfContact(contact: ContactValues): SearchadsEventIdentifiers {
  const context = contextOf(contact);
  const userIdentifiers: SearchadsEventIdentifiers['userIdentifiers'] = [];
  const email = contact.email === undefined ? undefined : googleEmail(contact.email);
  if (email) userIdentifiers.push({ emailAddress: sha256Hex(email) });
  const phone = contact.phone === undefined ? undefined : googlePhone(contact.phone, context);
  if (phone) userIdentifiers.push({ phoneNumber: sha256Hex(phone) });
  const givenName = contact.firstName === undefined ? undefined : googleGivenName(contact.firstName);
  const familyName = contact.lastName === undefined ? undefined : googleFamilyName(contact.lastName);
  const postalCode = contact.postalCode?.trim();
  if (givenName && familyName && context.country && postalCode)
    userIdentifiers.push({ address: { givenName: sha256Hex(givenName), familyName: sha256Hex(familyName), regionCode: context.country, postalCode } });
  const { gclid, gbraid, wbraid } = contact.clickIds ?? {};
  const adIdentifiers = Object.fromEntries(Object.entries({ gclid, gbraid, wbraid }).filter(([, value]) => value !== undefined));
  return { userIdentifiers, ...(Object.keys(adIdentifiers).length > 0 ? { adIdentifiers } : {}) };
}
