import { describe, expect, it } from 'vitest';
import { handler as createUser } from '../../functions/create-user.ts';
import { handler as getHistory } from '../../functions/get-campaign-optimization-history.ts';
import { handler as getProfile } from '../../functions/get-profile.ts';
import { handler as recordOptimization } from '../../functions/record-campaign-optimization.ts';
import { handler as createLeadForm } from '../../functions/create-lead-form.ts';
import { handler as createSearchCampaign } from '../../functions/create-search-campaign.ts';
import { handler as getSearchAdsResult } from '../../functions/get-search-ads-result.ts';
import { handler as createProfessionalCsvAudience } from '../../functions/create-professional-csv-audience.ts';
import { handler as createSocialCsvAudience } from '../../functions/create-social-csv-audience.ts';
import { handler as getAdAccountMedia } from '../../functions/get-ad-account-media.ts';
import { handler as getCampaignsList } from '../../functions/get-campaigns-list.ts';
import { handler as getPhotoPageMedia } from '../../functions/get-photo-page-media.ts';
import { handler as searchTargetingLocations } from '../../functions/search-targeting-locations.ts';
import { handler as getTenantSettings } from '../../functions/get-tenant-settings.ts';
import { handler as updateTenantSettings } from '../../functions/update-tenant-settings.ts';
import { handler as listWebhookEvents } from '../../functions/list-webhook-events.ts';
import { handler as createUpload } from '../../functions/create-upload.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';

/** Each handler invoked directly with its sam-style events (test/events), through the real middleware. */
const cases = [
  { name: 'create-user', handler: createUser, invalidPaths: ['userId', 'connections.social.accessToken', 'connections.social.adAccountId'] },
  { name: 'get-profile', handler: getProfile, invalidPaths: ['userId'] },
  { name: 'record-campaign-optimization', handler: recordOptimization, invalidPaths: ['entry.adSetId', 'entry.timestamp'] },
  { name: 'get-campaign-optimization-history', handler: getHistory, invalidPaths: ['campaignId'] },
  { name: 'get-ad-account-media', handler: getAdAccountMedia, invalidPaths: ['type', 'pagination'] },
  { name: 'get-photo-page-media', handler: getPhotoPageMedia, invalidPaths: ['userId'] },
  { name: 'search-targeting-locations', handler: searchTargetingLocations, invalidPaths: ['query'] },
  { name: 'get-campaigns-list', handler: getCampaignsList, invalidPaths: ['userId'] },
  { name: 'create-lead-form', handler: createLeadForm, invalidPaths: ['language', 'thankYouPage.website_url'] },
  { name: 'create-social-csv-audience', handler: createSocialCsvAudience, invalidPaths: ['audienceName'] },
  { name: 'get-search-ads-result', handler: getSearchAdsResult, invalidPaths: ['endDate'] },
  { name: 'create-search-campaign', handler: createSearchCampaign, invalidPaths: ['ads.0.headlines', 'locations'] },
  { name: 'create-professional-csv-audience', handler: createProfessionalCsvAudience, invalidPaths: ['type', 'csv'] },
  { name: 'get-tenant-settings', handler: getTenantSettings, invalidPaths: [''] },
  { name: 'update-tenant-settings', handler: updateTenantSettings, invalidPaths: ['redirectUris.0', 'webhook.url'] },
  { name: 'list-webhook-events', handler: listWebhookEvents, invalidPaths: ['pagination'] },
  { name: 'create-upload', handler: createUpload, invalidPaths: ['contentLength'] },
  // send_test_webhook's valid event needs a webhook set first: test/integration/webhooks.test.ts covers it
];

describe('handlers with sam-style events', () => {
  it.each(cases)('$name: the valid event succeeds', async ({ name, handler }) => {
    if (name === 'get-campaign-optimization-history') {
      await recordOptimization(loadEvent('record-campaign-optimization.valid'), lambdaContext());
    }
    const response = await handler(loadEvent(`${name}.valid`), lambdaContext());
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ success: true, results: { success: true } });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it.each(cases)('$name: the invalid event is 400 with details', async ({ name, handler, invalidPaths }) => {
    const response = await handler(loadEvent(`${name}.invalid`), lambdaContext());
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body);
    expect(body.results.code).toBe('INVALID_REQUEST');
    expect(body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual([...invalidPaths].sort());
  });
});
