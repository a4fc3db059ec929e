import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { professionalUserOfContact, searchadsIdentifiersOfContact, socialUserDataOfContact } from '../../shared/conversions/contact-identifiers.ts';
import { PlatformRejected } from '../../shared/core/errors.ts';
import { refusedEventIndex } from '../../shared/platforms/searchads/conversion-events.ts';
import { professionalEmailHash, professionalUserOfLead, socialUserDataOfLead } from '../../shared/conversions/identifiers.ts';
import { eventsJson } from '../../shared/platforms/social/conversion-events.ts';
import type { NormalizedLead } from '../../shared/schemas/leads.ts';
import { hasIdentifier } from '../../functions/use-cases/conversions/windows.ts';
import { outcomeEventId } from '../../functions/use-cases/conversions/report-outcome.ts';

/** What each platform receives of a lead's conversion (docs/conversions.md): pure functions, no stack. */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const lead = (platform: 'social' | 'professional', leadId: string, fields: NormalizedLead['fields']): NormalizedLead => ({
  leadId,
  platform,
  formId: '1',
  createdAt: '2026-11-28T10:00:00.000Z',
  isTest: false,
  fields,
  answers: [],
  consents: [],
});

describe('a lead’s identifiers', () => {
  it('social: the lead id in clear, the e-mail and phone normalized as the platform says, then hashed', () => {
    // the contract's worked phone: +1 555 555 0123 → 15555550123
    expect(socialUserDataOfLead(lead('social', '1357924680135791', { email: '  Jordan@Example.COM ', phone: '+1 (555) 555-0123' }))).toEqual({
      lead_id: '1357924680135791',
      em: [sha256('jordan@example.com')],
      ph: [sha256('15555550123')],
    });
    // a national number takes the form's country code; one that is no e-mail or phone is left out, never hashed as it is
    expect(socialUserDataOfLead(lead('social', '1', { phone: '030 1234567', country: 'de' })).ph).toEqual([sha256('49301234567')]);
    expect(socialUserDataOfLead(lead('social', '1', { email: 'not an address', phone: '12' }))).toEqual({ lead_id: '1' });
  });

  it('professional: the lead-form response URN and the e-mail trimmed, lower-cased, every space removed (the contract’s worked digest)', () => {
    expect(professionalEmailHash('alex.beispiel@example.com')).toBe('24bf86eddbf8caf752361f74ab5c74841e5243ef1052278bdcc90bb64a10b1cb');
    expect(professionalEmailHash(' Alex.Beispiel @Example.com ')).toBe('24bf86eddbf8caf752361f74ab5c74841e5243ef1052278bdcc90bb64a10b1cb');
    expect(professionalUserOfLead(lead('professional', 'abc-1', {}))).toEqual({ userIds: [], lead: 'urn:li:leadGenFormResponse:abc-1' });
  });

  it('what each platform can match on', () => {
    const social = (user_data: Record<string, unknown>) => ({
      event_name: 'Lead',
      event_time: 1,
      event_id: 'e',
      user_data,
      custom_data: { lead_event_source: 'CRM' },
    });
    expect(hasIdentifier('social', social({ lead_id: '1' }))).toBe(true);
    expect(hasIdentifier('social', social({ fbp: 'fb.1.1.1' }))).toBe(true);
    expect(hasIdentifier('social', social({}))).toBe(false);
    const professional = (user: { userIds: Array<{ idType: 'SHA256_EMAIL'; idValue: string }>; lead?: string }) => ({
      conversionRuleId: '1',
      conversionHappenedAt: 1,
      eventId: 'e',
      user,
    });
    expect(hasIdentifier('professional', professional({ userIds: [], lead: 'urn:li:leadGenFormResponse:1' }))).toBe(true);
    expect(hasIdentifier('professional', professional({ userIds: [] }))).toBe(false);
  });
});

describe('the social platform’s events body', () => {
  it('writes a 16-digit lead id as a JSON number from its digits, past what a JavaScript number holds', () => {
    const leadId = '9007199254740993'; // 2^53 + 1: Number() would make it …992
    const text = eventsJson([
      {
        event_name: 'Lead',
        event_time: 1_700_000_000,
        event_id: 'lead_1',
        user_data: { lead_id: leadId, em: ['a'.repeat(64)] },
        custom_data: { lead_event_source: 'HubSpot' },
      },
    ]);
    expect(text).toContain(`"lead_id":${leadId}`);
    expect(text).not.toContain(`"${leadId}"`);
    expect(JSON.parse(text)).toEqual([
      {
        event_name: 'Lead',
        event_time: 1_700_000_000,
        event_id: 'lead_1',
        action_source: 'system_generated',
        user_data: { lead_id: 9007199254740992, em: ['a'.repeat(64)] },
        custom_data: { event_source: 'crm', lead_event_source: 'HubSpot' },
      },
    ]);
  });
});

describe('a reported outcome’s event id', () => {
  it('is stable per (lead, stage) whatever the stage’s case, and at most 64 characters of the platforms’ alphabet', () => {
    const id = outcomeEventId('social', '1357924680135791', 'Qualified');
    expect(id).toBe(outcomeEventId('social', '1357924680135791', 'qualified'));
    expect(id).not.toBe(outcomeEventId('social', '1357924680135791', 'Won'));
    expect(id).not.toBe(outcomeEventId('professional', '1357924680135791', 'Qualified'));
    expect(id).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
  });
});

describe('a CRM contact’s identifiers, per platform', () => {
  const contact = {
    email: ' Avery.Lee+crm@Gmail.com ',
    phone: '(415) 555-0100',
    firstName: 'Dr. Avery',
    lastName: 'Lee Jr.',
    country: 'us',
    postalCode: '94105',
    clickIds: { fbc: 'fb.1.1554763741205.AbCdEf', gclid: 'Cj0KCQiA_BwE', liFatId: 'li-1' },
  };

  it('social: every value normalized by its rule and hashed; the click cookie in clear', () => {
    expect(socialUserDataOfContact(contact)).toEqual({
      em: [sha256('avery.lee+crm@gmail.com')],
      ph: [sha256('14155550100')],
      fn: [sha256('dravery')],
      ln: [sha256('leejr')],
      zp: [sha256('94105')],
      country: [sha256('us')],
      fbc: 'fb.1.1554763741205.AbCdEf',
    });
  });

  it('professional: the e-mail hashed and the first-party id; never a name (the pinned version takes names only in clear)', () => {
    expect(professionalUserOfContact(contact)).toEqual({
      userIds: [
        { idType: 'SHA256_EMAIL', idValue: sha256('avery.lee+crm@gmail.com') },
        { idType: 'LINKEDIN_FIRST_PARTY_ADS_TRACKING_UUID', idValue: 'li-1' },
      ],
    });
  });

  it('search ads: gmail’s dots and +tag dropped, the phone in E.164 with +, the address when all four parts are known', () => {
    expect(searchadsIdentifiersOfContact(contact)).toEqual({
      userIdentifiers: [
        { emailAddress: sha256('averylee@gmail.com') },
        { phoneNumber: sha256('+14155550100') },
        { address: { givenName: sha256('avery'), familyName: sha256('lee'), regionCode: 'US', postalCode: '94105' } },
      ],
      adIdentifiers: { gclid: 'Cj0KCQiA_BwE' },
    });
    expect(searchadsIdentifiersOfContact({ firstName: 'Avery', postalCode: '94105' })).toEqual({ userIdentifiers: [] });
  });

  it('a value a rule cannot read is left out, not hashed as it came', () => {
    expect(socialUserDataOfContact({ email: 'not an address', phone: '12' })).toEqual({});
    expect(professionalUserOfContact({ email: 'not an address' })).toEqual({ userIds: [] });
  });

  it('reads the event Google names in a refusal’s field path', () => {
    const refusal = (field?: string) => new PlatformRejected('searchads', 'refused', field ? { platformField: field } : {});
    expect(refusedEventIndex(refusal('events.events[3].event_timestamp'))).toBe(3);
    expect(refusedEventIndex(refusal('events[12].ad_identifiers.gclid'))).toBe(12);
    expect(refusedEventIndex(refusal('destinations[0].product_destination_id'))).toBeUndefined();
    expect(refusedEventIndex(refusal())).toBeUndefined();
  });
});
