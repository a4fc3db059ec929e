import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';

/**
 * Campaign control on the professional network, through the gateway against its sandbox: a GET of the
 * campaign, then one Rest.li PARTIAL_UPDATE (`X-RestLi-Method`, `{"patch":{"$set":…}}`) or, for a
 * draft, a DELETE; our checks and the read as the dry run (the platform has none).
 */
const ACTIVE = '600000101';
const PAUSED = '600000102';
const DRAFT = '600000103';
const ARCHIVED = '600000104';
const TOTAL_ONLY = '600000105';
const CANCELED = '600000106';

let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** A user on an ad account of its own (every account holds the seeded campaigns), or on the given one. */
async function professionalUser(account = String(randomInt(510_000_000, 599_999_999))) {
  const token = `AQVcontrol${randomBytes(8).toString('hex')}`;
  const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
  return { userId, token, account };
}

const status = (userId: string, campaignId: string, wanted: string, extra: Record<string, unknown> = {}) =>
  call('/professional/update_campaign_status', { userId, campaignId, status: wanted, ...extra }, { apiKey });
const budget = (userId: string, campaignId: string, amount: unknown, extra: Record<string, unknown> = {}) =>
  call('/professional/edit_campaign', { userId, campaignId, editLevel: 'BUDGET', amount, ...extra }, { apiKey });

async function writes(token: string) {
  return (await upstreamRequestsWith('professional', token))
    .filter((request) => request.method !== 'GET')
    .map((request) => ({
      method: request.method,
      path: request.path,
      restliMethod: request.headers['x-restli-method'],
      body: request.body ? JSON.parse(request.body) : null,
    }));
}

describe('professional update_campaign_status', () => {
  it('pauses with one GET and one PARTIAL_UPDATE of status, with the Rest.li headers', async () => {
    const { userId, token, account } = await professionalUser();
    const response = await status(userId, `urn:li:sponsoredCampaign:${ACTIVE}`, 'PAUSED');
    expect(response.body.results).toEqual({
      success: true,
      campaignId: ACTIVE,
      status: 'PAUSED',
      previousStatus: 'ACTIVE',
      platformStatus: 'PAUSED',
      changed: true,
    });
    const requests = await upstreamRequestsWith('professional', token);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /rest/adAccounts/${account}/adCampaigns/${ACTIVE}`,
      `POST /rest/adAccounts/${account}/adCampaigns/${ACTIVE}`,
    ]);
    const [, update] = requests;
    expect(update?.headers).toMatchObject({ 'x-restli-method': 'PARTIAL_UPDATE', 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' });
    expect(update?.headers['linkedin-version']).toMatch(/^\d{6}$/);
    expect(JSON.parse(update?.body ?? '')).toEqual({ patch: { $set: { status: 'PAUSED' } } });
  });

  it('DELETE deletes a draft and archives any other, and the answer says which', async () => {
    const { userId, token, account } = await professionalUser();
    expect((await status(userId, DRAFT, 'DELETE')).body.results).toMatchObject({
      status: 'REMOVED',
      previousStatus: 'PAUSED',
      platformStatus: 'DELETED',
      changed: true,
    });
    expect((await status(userId, ACTIVE, 'DELETE')).body.results).toMatchObject({ status: 'REMOVED', platformStatus: 'ARCHIVED', changed: true });
    expect(await writes(token)).toEqual([
      { method: 'DELETE', path: `/rest/adAccounts/${account}/adCampaigns/${DRAFT}`, restliMethod: undefined, body: null },
      {
        method: 'POST',
        path: `/rest/adAccounts/${account}/adCampaigns/${ACTIVE}`,
        restliMethod: 'PARTIAL_UPDATE',
        body: { patch: { $set: { status: 'ARCHIVED' } } },
      },
    ]);
    expect((await status(userId, DRAFT, 'PAUSED')).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
  });

  it('a draft paused changes nothing; a draft activated is launched', async () => {
    const { userId, token } = await professionalUser();
    expect((await status(userId, DRAFT, 'PAUSED')).body.results).toMatchObject({ status: 'PAUSED', platformStatus: 'DRAFT', changed: false });
    expect(await writes(token)).toEqual([]);
    expect((await status(userId, DRAFT, 'ACTIVE')).body.results).toMatchObject({ status: 'ACTIVE', previousStatus: 'PAUSED', changed: true });
  });

  it('archived and canceled campaigns are CAMPAIGN_REMOVED before any write; an unknown one CAMPAIGN_NOT_FOUND', async () => {
    const { userId, token } = await professionalUser();
    for (const campaignId of [ARCHIVED, CANCELED]) {
      expect((await status(userId, campaignId, 'ACTIVE')).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_REMOVED' });
      expect((await budget(userId, campaignId, 40)).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_REMOVED' });
    }
    expect((await status(userId, '699999999', 'PAUSED')).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
    expect(await writes(token)).toEqual([]);
  });

  it('validateOnly is our checks and the read: nothing is sent to be written', async () => {
    const { userId, token } = await professionalUser();
    expect((await status(userId, PAUSED, 'ACTIVE', { validateOnly: true })).body.results).toMatchObject({
      status: 'ACTIVE',
      changed: true,
      validateOnly: true,
    });
    expect((await budget(userId, PAUSED, 45, { validateOnly: true })).body.results).toMatchObject({ dailyBudget: { amount: '45.00' }, validateOnly: true });
    expect(await writes(token)).toEqual([]);
  });
});

describe('professional edit_campaign', () => {
  it('USD: a decimal string in major units with the account’s currency', async () => {
    const { userId, token, account } = await professionalUser();
    const response = await budget(userId, ACTIVE, 75);
    expect(response.body.results).toMatchObject({
      dailyBudget: { amount: '75.00', currency: 'USD' },
      previousDailyBudget: { amount: '50.00', currency: 'USD' },
      changed: true,
    });
    expect(await writes(token)).toEqual([
      {
        method: 'POST',
        path: `/rest/adAccounts/${account}/adCampaigns/${ACTIVE}`,
        restliMethod: 'PARTIAL_UPDATE',
        body: { patch: { $set: { dailyBudget: { amount: '75.00', currencyCode: 'USD' } } } },
      },
    ]);
  });

  it('JPY whole units and KWD three decimals; more decimals are 400 before any write', async () => {
    const jpy = await professionalUser('500000002');
    expect((await budget(jpy.userId, PAUSED, '7500')).body.results.dailyBudget).toEqual({ amount: '7500', currency: 'JPY' });
    expect((await budget(jpy.userId, PAUSED, '7500.5')).status).toBe(400);
    expect((await writes(jpy.token)).map((write) => write.body.patch.$set.dailyBudget)).toEqual([{ amount: '7500', currencyCode: 'JPY' }]);
    const kwd = await professionalUser('500000003');
    expect((await budget(kwd.userId, PAUSED, '75.125')).body.results.dailyBudget).toEqual({ amount: '75.125', currency: 'KWD' });
    expect((await writes(kwd.token)).map((write) => write.body.patch.$set.dailyBudget)).toEqual([{ amount: '75.125', currencyCode: 'KWD' }]);
  });

  it('a total budget only is BUDGET_NOT_ON_CAMPAIGN; below the platform’s minimum is BUDGET_TOO_LOW', async () => {
    const { userId, token } = await professionalUser();
    expect((await budget(userId, TOTAL_ONLY, 75)).body.results).toMatchObject({ success: false, code: 'BUDGET_NOT_ON_CAMPAIGN' });
    expect(await writes(token)).toEqual([]);
    expect((await budget(userId, ACTIVE, 5)).body.results).toMatchObject({ success: false, code: 'BUDGET_TOO_LOW' });
  });
});
