import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { call, newTenant } from '../helpers/api.ts';
import { expectedLeadgenBody, validForm } from '../helpers/examples.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { expectedProof, newSocialUser } from '../helpers/social.ts';

const PAGE = DEMO_CONNECTIONS.social.pageId;
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** The user's page-token exchanges (GET {page}?fields=access_token). */
async function pageTokenExchanges(userToken: string) {
  return (await upstreamRequestsWith('social', userToken)).filter((request) => request.path === `/v26.0/${PAGE}` && request.query.fields === 'access_token');
}

/** The one form creation sent upstream for the form named `name`. */
async function creationOf(name: string) {
  const creations = (await upstreamRequestsWith('social', name)).filter(
    (request) => request.path === `/v26.0/${PAGE}/leadgen_forms` && JSON.parse(request.body || '{}').name === name,
  );
  expect(creations).toHaveLength(1);
  return creations[0];
}

describe('create_lead_form', () => {
  it('creates the form with a page token and the exact mapped body', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const form = validForm(userId);
    const response = await call('/social/create_lead_form', form, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, results: { success: true, leadFormId: expect.stringMatching(/^\d+$/) } });

    const [exchange, ...more] = await upstreamRequestsWith('social', token);
    expect(more).toEqual([]);
    expect(exchange?.query).toEqual({ fields: 'access_token', access_token: token, appsecret_proof: expectedProof(token) });

    const creation = await creationOf(form.leadsFormName);
    expect(creation?.method).toBe('POST');
    const body = JSON.parse(creation?.body ?? '{}');
    const pageToken = body.access_token as string;
    expect(pageToken).toMatch(/^EAAPage/);
    expect(pageToken).not.toBe(token);
    expect(body).toEqual({
      ...expectedLeadgenBody(form.leadsFormName),
      access_token: pageToken,
      appsecret_proof: expectedProof(pageToken),
    });
  });

  it('sends VISIT_WEBSITE as VIEW_WEBSITE and MORE_VOLUME as not optimised for quality', async () => {
    const { userId } = await newSocialUser(apiKey);
    const form = validForm(userId);
    const response = await call(
      '/social/create_lead_form',
      { ...form, form_type: 'MORE_VOLUME', intro: undefined, thankYouPage: { ...form.thankYouPage, button_type: 'VISIT_WEBSITE' } },
      { apiKey },
    );
    expect(response.status).toBe(200);
    const body = JSON.parse((await creationOf(form.leadsFormName))?.body ?? '{}');
    expect(body.thank_you_page.button_type).toBe('VIEW_WEBSITE');
    expect(body.is_optimized_for_quality).toBe(false);
    expect(body).not.toHaveProperty('context_card');
  });

  it('sends the phone and country for CALL_BUSINESS, and no website', async () => {
    const { userId } = await newSocialUser(apiKey);
    const thankYouPage = {
      title: 'Thanks!',
      body: 'Call us.',
      button_text: 'Call',
      button_type: 'CALL_BUSINESS',
      country_code: 'US',
      business_phone_number: '+1 650 253 0000',
      website_url: 'https://www.example.com',
    };
    const form = validForm(userId);
    const response = await call('/social/create_lead_form', { ...form, thankYouPage }, { apiKey });
    expect(response.status).toBe(200);
    const creation = await creationOf(form.leadsFormName);
    expect(JSON.parse(creation?.body ?? '{}').thank_you_page).toEqual({
      title: 'Thanks!',
      body: 'Call us.',
      button_text: 'Call',
      button_type: 'CALL_BUSINESS',
      country_code: 'US',
      business_phone_number: '+1 650 253 0000',
    });
  });

  it('fetches the page token once and reuses it for the next form', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    expect((await call('/social/create_lead_form', validForm(userId), { apiKey })).status).toBe(200);
    expect((await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: 'Second form' }, { apiKey })).status).toBe(200);
    expect(await pageTokenExchanges(token)).toHaveLength(1);
  });

  it('creates once for a retried Idempotency-Key', async () => {
    const { userId } = await newSocialUser(apiKey);
    const headers = { 'idempotency-key': randomUUID() };
    const name = `Idempotent ${randomUUID()}`;
    const first = await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: name }, { apiKey, headers });
    const retry = await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: name }, { apiKey, headers });
    expect(retry.body).toEqual(first.body);
    const creations = (await upstreamRequestsWith('social', name)).filter((request) => request.path.endsWith('/leadgen_forms') && request.body.includes(name));
    expect(creations).toHaveLength(1);
  });

  it('maps the platform’s refusal to PLATFORM_REJECTED', async () => {
    const { userId } = await newSocialUser(apiKey);
    const name = `Refused ${randomUUID()}`;
    await injectFault('social', {
      requestIncludes: name,
      status: 400,
      body: { error: { message: '(#192) Invalid phone number', code: 192, error_user_msg: 'Please enter a valid phone number.' } },
    });
    const response = await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: name }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED', error: 'Please enter a valid phone number.', platformCode: 192 });
  });

  it('does not send a creating call twice after a timeout (the platform may have acted)', async () => {
    const { userId } = await newSocialUser(apiKey);
    const name = `Timeout ${randomUUID()}`;
    await injectFault('social', { requestIncludes: name, kind: 'timeout', times: 3 });
    const response = await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: name }, { apiKey });
    expect(response.status).toBe(504);
    const creations = await upstreamRequestsWith('social', name);
    expect(creations).toHaveLength(1);
  });
});

describe('create_lead_form validation: every rule → 400 with details, nothing sent upstream', () => {
  type Mutation = (form: any) => void;
  const cases: Array<[string, Mutation, string]> = [
    ['questions missing', (form) => delete form.leadFormQuestions, 'leadFormQuestions'],
    ['no questions', (form) => (form.leadFormQuestions = []), 'leadFormQuestions'],
    ['unknown question type', (form) => (form.leadFormQuestions[0].type = 'FAVOURITE_COLOR'), 'leadFormQuestions.0.type'],
    ['platform-only question type', (form) => (form.leadFormQuestions[0].type = 'THREAD_LINK'), 'leadFormQuestions.0.type'],
    ['CUSTOM without label', (form) => delete form.leadFormQuestions[3].label, 'leadFormQuestions.3.label'],
    ['option without key', (form) => delete form.leadFormQuestions[3].options[0].key, 'leadFormQuestions.3.options.0.key'],
    ['option without value', (form) => delete form.leadFormQuestions[3].options[1].value, 'leadFormQuestions.3.options.1.value'],
    ['duplicate option keys', (form) => (form.leadFormQuestions[3].options[1].key = 'sofa'), 'leadFormQuestions.3.options.1.key'],
    ['empty options', (form) => (form.leadFormQuestions[3].options = []), 'leadFormQuestions.3.options'],
    ['privacy URL not a URL', (form) => (form.privacyPolicyUrl = 'example.com/privacy'), 'privacyPolicyUrl'],
    ['privacy URL not http', (form) => (form.privacyPolicyUrl = 'javascript:alert(1)'), 'privacyPolicyUrl'],
    ['privacy name missing', (form) => delete form.privacyPolicyName, 'privacyPolicyName'],
    ['privacy name over 70 characters', (form) => (form.privacyPolicyName = 'p'.repeat(71)), 'privacyPolicyName'],
    ['form name missing', (form) => delete form.leadsFormName, 'leadsFormName'],
    ['unknown language', (form) => (form.language = 'EN'), 'language'],
    ['lower-case language', (form) => (form.language = 'en_us'), 'language'],
    ['unknown form type', (form) => (form.form_type = 'MAXIMUM'), 'form_type'],
    ['form type missing', (form) => delete form.form_type, 'form_type'],
    ['thank-you page missing', (form) => delete form.thankYouPage, 'thankYouPage'],
    ['thank-you title missing', (form) => delete form.thankYouPage.title, 'thankYouPage.title'],
    ['thank-you body missing', (form) => delete form.thankYouPage.body, 'thankYouPage.body'],
    ['thank-you button text missing', (form) => delete form.thankYouPage.button_text, 'thankYouPage.button_text'],
    ['unlisted button type', (form) => (form.thankYouPage.button_type = 'DOWNLOAD'), 'thankYouPage.button_type'],
    ['VIEW_WEBSITE without website', (form) => delete form.thankYouPage.website_url, 'thankYouPage.website_url'],
    [
      'VISIT_WEBSITE without website',
      (form) => {
        form.thankYouPage.button_type = 'VISIT_WEBSITE';
        delete form.thankYouPage.website_url;
      },
      'thankYouPage.website_url',
    ],
    ['website not http', (form) => (form.thankYouPage.website_url = 'ftp://example.com'), 'thankYouPage.website_url'],
    [
      'CALL_BUSINESS without country',
      (form) => Object.assign(form.thankYouPage, { button_type: 'CALL_BUSINESS', business_phone_number: '+1 650 253 0000' }),
      'thankYouPage.country_code',
    ],
    [
      'CALL_BUSINESS without phone',
      (form) => Object.assign(form.thankYouPage, { button_type: 'CALL_BUSINESS', country_code: 'US' }),
      'thankYouPage.business_phone_number',
    ],
    [
      'CALL_BUSINESS with an invalid phone',
      (form) => Object.assign(form.thankYouPage, { button_type: 'CALL_BUSINESS', country_code: 'US', business_phone_number: '12345' }),
      'thankYouPage.business_phone_number',
    ],
    [
      'lower-case country code',
      (form) => Object.assign(form.thankYouPage, { button_type: 'CALL_BUSINESS', country_code: 'us', business_phone_number: '+1 650 253 0000' }),
      'thankYouPage.country_code',
    ],
    [
      'unknown country code',
      (form) => Object.assign(form.thankYouPage, { button_type: 'CALL_BUSINESS', country_code: 'XX', business_phone_number: '+1 650 253 0000' }),
      'thankYouPage.country_code',
    ],
    ['intro style unknown', (form) => (form.intro.style = 'GRID_STYLE'), 'intro.style'],
    ['intro title missing', (form) => delete form.intro.title, 'intro.title'],
    ['intro content missing', (form) => delete form.intro.content, 'intro.content'],
    ['intro content empty', (form) => (form.intro.content = []), 'intro.content'],
    ['headline of the wrong type', (form) => (form.questionPageCustomHeadline = 42), 'questionPageCustomHeadline'],
  ];

  it.each(cases)('%s', async (_label, mutate, path) => {
    const { userId, token } = await newSocialUser(apiKey);
    const form = structuredClone(validForm(userId));
    mutate(form);
    const response = await call('/social/create_lead_form', form, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(response.body.results.error).toContain(path);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });
});
