import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { upstreamRequests } from '../helpers/sandbox.ts';

/**
 * Campaign control on search ads, through the gateway against the search-ads sandbox: one GAQL read,
 * then one `campaigns:mutate` or `campaignBudgets:mutate` with its updateMask, and nothing else
 * written; micros as multiples of the currency's billable unit; shared and custom-period budgets
 * refused before any write; the platform's dry run.
 */
const ACTIVE = '21234567890';
const PAUSED = '21234567891';
const SHARED = '21234567892';
const TOTAL_BUDGET = '21234567894';

let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** A user on a customer of its own (every new customer holds the seeded campaigns), or on the given one. */
async function searchUser(customerId = String(randomInt(1_000_000_000, 6_999_999_999))) {
  const userId = await newUser(apiKey, { searchads: { refreshToken: `1//control-${randomBytes(6).toString('hex')}`, customerId } });
  return { userId, customerId };
}

const status = (userId: string, campaignId: string, wanted: string, extra: Record<string, unknown> = {}) =>
  call('/searchads/update_campaign_status', { userId, campaignId, status: wanted, ...extra }, { apiKey });
const budget = (userId: string, campaignId: string, amount: unknown, extra: Record<string, unknown> = {}) =>
  call('/searchads/edit_campaign', { userId, campaignId, editLevel: 'BUDGET', amount, ...extra }, { apiKey });

/** The writes the service sent on this customer: path and body. */
async function writes(customerId: string) {
  return (await upstreamRequests('searchads'))
    .filter((request) => request.path.includes(`/customers/${customerId}/`) && !request.path.endsWith('googleAds:search'))
    .map((request) => ({ path: request.path.replace(/^\/v\d+\/customers\/\d+\//, ''), body: JSON.parse(request.body) }));
}

async function searches(customerId: string) {
  return (await upstreamRequests('searchads'))
    .filter((request) => request.path === `/v26/customers/${customerId}/googleAds:search`)
    .map((request) => JSON.parse(request.body).query as string);
}

describe('searchads update_campaign_status', () => {
  it('pauses with one read and one campaigns:mutate update of status, updateMask "status"', async () => {
    const { userId, customerId } = await searchUser();
    const response = await status(userId, ACTIVE, 'PAUSED');
    expect(response.body.results).toEqual({
      success: true,
      campaignId: ACTIVE,
      status: 'PAUSED',
      previousStatus: 'ACTIVE',
      platformStatus: 'PAUSED',
      changed: true,
    });
    expect(await writes(customerId)).toEqual([
      {
        path: 'campaigns:mutate',
        body: { operations: [{ updateMask: 'status', update: { resourceName: `customers/${customerId}/campaigns/${ACTIVE}`, status: 'PAUSED' } }] },
      },
    ]);
    const reads = await searches(customerId);
    expect(reads.filter((query) => query.includes('FROM campaign '))).toHaveLength(1);
    expect(reads.find((query) => query.includes('FROM campaign '))).toContain(`WHERE campaign.id = ${ACTIVE}`);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: ACTIVE }, { apiKey });
    expect(history.body.results.campaign).toMatchObject({ campaignName: 'Always-on brand search', platform: 'searchads', optimizationStatus: 'PAUSED' });
  });

  it('resumes a paused campaign (ENABLED upstream)', async () => {
    const { userId, customerId } = await searchUser();
    expect((await status(userId, PAUSED, 'ACTIVE')).body.results).toMatchObject({ status: 'ACTIVE', previousStatus: 'PAUSED', platformStatus: 'ENABLED' });
    expect((await writes(customerId))[0]?.body.operations[0].update.status).toBe('ENABLED');
  });

  it('DELETE is a remove operation; afterwards nothing can change (CAMPAIGN_REMOVED) and a second DELETE is changed false', async () => {
    const { userId, customerId } = await searchUser();
    expect((await status(userId, ACTIVE, 'DELETE')).body.results).toMatchObject({ status: 'REMOVED', platformStatus: 'REMOVED', changed: true });
    expect(await writes(customerId)).toEqual([{ path: 'campaigns:mutate', body: { operations: [{ remove: `customers/${customerId}/campaigns/${ACTIVE}` }] } }]);
    expect((await status(userId, ACTIVE, 'DELETE')).body.results).toMatchObject({ changed: false, status: 'REMOVED' });
    expect((await status(userId, ACTIVE, 'PAUSED')).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_REMOVED' });
    expect((await budget(userId, ACTIVE, 60)).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_REMOVED' });
    expect(await writes(customerId)).toHaveLength(1);
  });

  it('an unknown campaign is CAMPAIGN_NOT_FOUND with nothing written; validateOnly sends the platform’s dry run', async () => {
    const { userId, customerId } = await searchUser();
    expect((await status(userId, '29999999999', 'PAUSED')).body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
    const dry = await status(userId, ACTIVE, 'PAUSED', { validateOnly: true });
    expect(dry.body.results).toMatchObject({ status: 'PAUSED', changed: true, validateOnly: true });
    expect((await writes(customerId)).map((write) => write.body.validateOnly)).toEqual([true]);
    expect((await status(userId, ACTIVE, 'PAUSED')).body.results).toMatchObject({ previousStatus: 'ACTIVE' });
  });
});

describe('searchads edit_campaign', () => {
  it('USD: 75 is amountMicros "75000000" on the campaign’s budget, updateMask "amountMicros"', async () => {
    const { userId, customerId } = await searchUser();
    const response = await budget(userId, ACTIVE, '75');
    expect(response.body.results).toEqual({
      success: true,
      campaignId: ACTIVE,
      dailyBudget: { amount: '75.00', currency: 'USD' },
      previousDailyBudget: { amount: '50.00', currency: 'USD' },
      changed: true,
    });
    expect(await writes(customerId)).toEqual([
      {
        path: 'campaignBudgets:mutate',
        body: {
          operations: [
            { updateMask: 'amountMicros', update: { resourceName: `customers/${customerId}/campaignBudgets/14567890100`, amountMicros: '75000000' } },
          ],
        },
      },
    ]);
  });

  it('JPY: whole yen only, micros of a million per yen; 75.5 is 400 before any write', async () => {
    const { userId, customerId } = await searchUser('7000000001');
    expect((await budget(userId, PAUSED, '7500')).body.results).toMatchObject({ dailyBudget: { amount: '7500', currency: 'JPY' } });
    const refused = await budget(userId, PAUSED, '75.5');
    expect(refused.status).toBe(400);
    const amounts = (await writes(customerId))
      .filter((write) => write.path === 'campaignBudgets:mutate')
      .map((write) => write.body.operations[0].update.amountMicros);
    expect(amounts.at(-1)).toBe('7500000000');
    expect(amounts.filter((amount: string) => amount === '75500000')).toEqual([]);
  });

  it('KWD has three decimals: 75.125 is amountMicros "75125000"', async () => {
    const { userId, customerId } = await searchUser('7000000002');
    expect((await budget(userId, PAUSED, '75.125')).body.results).toMatchObject({ dailyBudget: { amount: '75.125', currency: 'KWD' } });
    const last = (await writes(customerId)).filter((write) => write.path === 'campaignBudgets:mutate').at(-1);
    expect(last?.body.operations[0].update.amountMicros).toBe('75125000');
    expect((await budget(userId, PAUSED, '75.1255')).status).toBe(400);
  });

  it('a shared budget is SHARED_BUDGET unless allowed; allowed, it changes and says for how many others', async () => {
    const { userId, customerId } = await searchUser();
    expect((await budget(userId, SHARED, 90)).body.results).toMatchObject({ success: false, code: 'SHARED_BUDGET', sharedWith: 1 });
    expect(await writes(customerId)).toEqual([]);
    const allowed = await budget(userId, SHARED, 90, { allowSharedBudget: true });
    expect(allowed.body.results).toMatchObject({ dailyBudget: { amount: '90.00' }, previousDailyBudget: { amount: '80.00' }, sharedWith: 1, changed: true });
    expect((await writes(customerId)).map((write) => write.body.operations[0].update.resourceName)).toEqual([
      `customers/${customerId}/campaignBudgets/14567890102`,
    ]);
  });

  it('a total (custom period) budget is BUDGET_NOT_ON_CAMPAIGN; below the minimum is BUDGET_TOO_LOW with the platform’s minimum', async () => {
    const { userId, customerId } = await searchUser();
    expect((await budget(userId, TOTAL_BUDGET, 50)).body.results).toMatchObject({ success: false, code: 'BUDGET_NOT_ON_CAMPAIGN' });
    expect(await writes(customerId)).toEqual([]);
    const low = await budget(userId, ACTIVE, '0.5');
    expect(low.body.results).toMatchObject({ success: false, code: 'BUDGET_TOO_LOW', minimum: { amount: '1.00', currency: 'USD' } });
  });

  it('validateOnly sends the platform’s dry run and changes nothing', async () => {
    const { userId, customerId } = await searchUser();
    expect((await budget(userId, ACTIVE, 60, { validateOnly: true })).body.results).toMatchObject({ changed: true, validateOnly: true });
    expect((await writes(customerId)).map((write) => write.body.validateOnly)).toEqual([true]);
    expect((await budget(userId, ACTIVE, 60)).body.results.previousDailyBudget).toEqual({ amount: '50.00', currency: 'USD' });
  });
});
