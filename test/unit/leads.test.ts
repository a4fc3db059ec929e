import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeProfessionalLead } from '../../shared/platforms/professional/leads.ts';
import { normalizeSocialLead } from '../../shared/platforms/social/leads.ts';
import {
  professionalChallengeAnswer,
  professionalNotices,
  professionalSignatureOf,
  professionalSignatureValid,
} from '../../shared/platforms/professional/lead-webhooks.ts';
import { socialChallengeAnswer, socialNotices, socialSignatureValid } from '../../shared/platforms/social/lead-webhooks.ts';
import { normalizedLeadSchema } from '../../shared/schemas/leads.ts';

/**
 * The platforms' lead webhooks and reads, on their recorded exchanges (test/fixtures/leads): the
 * signatures as each platform computes them, the notices in a body, and a lead read in our one shape.
 */
const exchange = (name: string): any => JSON.parse(readFileSync(new URL(`../fixtures/leads/${name}.json`, import.meta.url), 'utf8'));
const APP_SECRET = '5f3b9c0d2e7a41f8b6c0d9e8a7f6b5c4';
const CLIENT_SECRET = 'FAKEliClientSecret0000Leads==';

describe('platform webhook signatures', () => {
  for (const name of ['meta-webhook-leadgen-post', 'meta-webhook-leadgen-post-batched', 'meta-webhook-leadgen-post-test-lead']) {
    it(`${name}: the social signature holds over the exact bytes, and over nothing else`, () => {
      const { request } = exchange(name);
      const raw = Buffer.from(request.raw_body);
      expect(socialSignatureValid(raw, request.headers['x-hub-signature-256'], APP_SECRET)).toBe(true);
      expect(socialSignatureValid(Buffer.from(JSON.stringify(JSON.parse(request.raw_body), null, 1)), request.headers['x-hub-signature-256'], APP_SECRET)).toBe(
        false,
      );
      expect(socialSignatureValid(raw, request.headers['x-hub-signature-256'], 'another-secret')).toBe(false);
    });
  }

  it('a forged social signature, a missing one and a truncated one are refused', () => {
    const { request } = exchange('meta-webhook-leadgen-post-bad-signature');
    const raw = Buffer.from(request.raw_body);
    expect(socialSignatureValid(raw, request.headers['x-hub-signature-256'], APP_SECRET)).toBe(false);
    expect(socialSignatureValid(raw, undefined, APP_SECRET)).toBe(false);
    expect(socialSignatureValid(raw, 'sha256=abc', APP_SECRET)).toBe(false);
  });

  for (const name of ['li-webhook-notification-post', 'li-webhook-notification-post-deleted']) {
    it(`${name}: the professional signature is over "hmacsha256=" + the body, with or without the prefix on the header`, () => {
      const { request } = exchange(name);
      const raw = Buffer.from(request.raw_body);
      const header = request.headers['x-li-signature'];
      expect(professionalSignatureValid(raw, header, CLIENT_SECRET)).toBe(true);
      expect(professionalSignatureValid(raw, `hmacsha256=${header}`, CLIENT_SECRET)).toBe(true);
      expect(professionalSignatureOf(request.raw_body, CLIENT_SECRET)).toBe(header);
      expect(professionalSignatureValid(raw, createBareSignature(request.raw_body), CLIENT_SECRET)).toBe(false);
    });
  }

  it('the verification handshakes: the social challenge echoed only for our verify token; the professional HMAC of the code', () => {
    const good = exchange('meta-webhook-verify-get');
    const query = Object.fromEntries(new URL(good.request.url).searchParams);
    expect(socialChallengeAnswer(query, query['hub.verify_token'] as string)).toBe(good.response.body);
    expect(socialChallengeAnswer(query, 'another-token')).toBeUndefined();
    // a token of another length in bytes than in characters is refused like any other, never a throw
    for (const given of ['é'.repeat(12), '🔑', `${query['hub.verify_token']}é`, ''])
      expect(socialChallengeAnswer({ ...query, 'hub.verify_token': given }, query['hub.verify_token'] as string)).toBeUndefined();
    expect(socialChallengeAnswer({ ...query, 'hub.verify_token': 'ü-token' }, 'ü-token')).toBe(good.response.body);
    const validation = exchange('li-webhook-validation-get');
    const code = new URL(validation.request.url).searchParams.get('challengeCode') as string;
    expect(professionalChallengeAnswer(code, CLIENT_SECRET)).toEqual(validation.response.body);
  });
});

/** The professional body signed without the prefix: what a careless receiver computes. */
const createBareSignature = (body: string) => professionalSignatureOf(body, CLIENT_SECRET).replace(/./, (c) => (c === '0' ? '1' : '0'));

describe('the notices in a body', () => {
  it('a batched social body: every lead of every Page, ids as text', () => {
    const notices = socialNotices(exchange('meta-webhook-leadgen-post-batched').request.raw_body);
    expect(notices?.length).toBe(3);
    expect(notices?.every((notice) => notice.platform === 'social' && /^\d+$/.test(notice.leadId))).toBe(true);
    expect(new Set(notices?.map((notice) => (notice.platform === 'social' ? notice.pageId : ''))).size).toBe(2);
  });

  it('a professional notice names the account and the lead; a deletion is one too; a body of neither shape is none', () => {
    expect(professionalNotices(exchange('li-webhook-notification-post').request.raw_body)).toEqual([
      { platform: 'professional', accountId: '500000001', leadId: '5a1f0c2e-7b3d-4e9a-9c11-0fakeLead0001-3', formId: '900000501', action: 'CREATED' },
    ]);
    expect(professionalNotices(exchange('li-webhook-notification-post-deleted').request.raw_body)?.[0]).toMatchObject({ action: 'DELETED' });
    expect(professionalNotices('{"hello":1}')).toBeUndefined();
    expect(socialNotices('{"object":"user","entry":[]}')).toBeUndefined();
    // a body that is not JSON at all is of no known shape too: kept and reported, never a throw that would retry it
    for (const raw of ['not json {', '', '\u0000\u0001', '{"object":"page","entry":[']) {
      expect(socialNotices(raw)).toBeUndefined();
      expect(professionalNotices(raw)).toBeUndefined();
    }
  });

  it('an id above 2^53 keeps every digit', () => {
    const raw =
      '{"object":"page","entry":[{"id":109876543210987,"changes":[{"field":"leadgen","value":{"leadgen_id":13579246801357919,"page_id":109876543210987}}]}]}';
    expect(socialNotices(raw)?.[0]).toMatchObject({ leadId: '13579246801357919', pageId: '109876543210987' });
  });
});

describe('the normalized lead', () => {
  const questions = exchange('meta-form-questions-read').response.body.questions;

  it('a social lead under default keys: the fields by name, every answer kept', () => {
    const lead = normalizeSocialLead(exchange('meta-lead-read-standard').response.body, questions, false);
    expect(normalizedLeadSchema.parse(lead)).toEqual(lead);
    expect(lead).toMatchObject({
      leadId: '1357924680135791',
      platform: 'social',
      formId: '998877665544332',
      campaignId: '120210987000300101',
      adSetId: '120210987000300201',
      adId: '120210987000300401',
      createdAt: '2026-11-27T09:14:05.000Z',
      isTest: false,
      fields: { fullName: 'Jordan Example', email: 'jordan@example.com', phone: '+15555550123', city: 'Springfield', zip: '62701' },
    });
    expect(lead.answers).toHaveLength(5);
  });

  it('a social lead under our keys q1…qN: read through the form, options by their label, consents as given', () => {
    const lead = normalizeSocialLead(exchange('meta-lead-read-custom-questions').response.body, questions, false);
    expect(lead.fields).toEqual({ fullName: 'Renée Muster', email: 'renee@example.org', phone: '+4915150000000' });
    expect(lead.answers.at(-1)).toEqual({ key: 'q4', question: 'Which product interests you?', value: 'Sofa' });
    expect(lead.consents).toEqual([
      { key: 'optional_1', accepted: true },
      { key: 'optional_2', accepted: false },
    ]);
  });

  it('a professional lead: predefined fields by name, a multiple choice by its label, the full name made from first and last', () => {
    const lead = normalizeProfessionalLead(exchange('li-lead-response-get').response.body, exchange('li-lead-form-get').response.body);
    expect(normalizedLeadSchema.parse(lead)).toEqual(lead);
    expect(lead).toMatchObject({
      leadId: '5a1f0c2e-7b3d-4e9a-9c11-0fakeLead0001-3',
      platform: 'professional',
      formId: '900000501',
      campaignId: '600000301',
      adId: '800000401',
      isTest: false,
      fields: {
        firstName: 'Alex',
        lastName: 'Beispiel',
        fullName: 'Alex Beispiel',
        email: 'alex.beispiel@example.com',
        jobTitle: 'Head of Facilities',
        company: 'Example GmbH',
        phone: '+49 30 0000000',
      },
      consents: [{ key: '0', accepted: true }],
    });
    expect(lead.answers.at(-1)).toEqual({ key: '7900000501', question: 'When do you plan the service?', value: 'Within 3 months' });
  });
});
