import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { winterCampaign } from '../helpers/examples.ts';
import { createRule, runGroup, runMessage, trippingRule } from '../helpers/rules.ts';
import { upstreamRequests } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';

/**
 * The EU political-advertising block on search ads (docs/decisions.md, "The EU political-advertising
 * declaration"): one undeclared campaign makes the platform refuse every campaign write in its account.
 * Every write answers it in band with the undeclared campaigns, never a 5xx; the declaration operation
 * lifts it with updates that set only that field; a rule refused this way is not disabled for it; the
 * tenant hears of it at most once a day per account.
 */
const ACTIVE = '21234567890';
const PAUSED = '21234567891';
let apiKey = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/declaration` } }, { apiKey });
});
afterAll(() => receiver.close());

async function blockedUser() {
  const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
  const userId = await newUser(apiKey, { searchads: { refreshToken: `1//declare-${randomBytes(6).toString('hex')}`, customerId } });
  const marked = await fetch(`${stack().sandboxes.searchads}/__sandbox/undeclared`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customerId, campaignIds: [ACTIVE, PAUSED] }),
  });
  expect(marked.status).toBe(200);
  return { userId, customerId };
}

const mutatesOf = async (customerId: string) =>
  (await upstreamRequests('searchads')).filter((request) => request.path.includes(`/customers/${customerId}/`) && request.path.endsWith(':mutate'));

describe('the EU political-advertising declaration block', () => {
  it('every campaign write of a blocked account answers EU_POLITICAL_DECLARATION_REQUIRED with the undeclared campaigns; declaring them lifts it', async () => {
    const { userId, customerId } = await blockedUser();
    const paused = await call('/searchads/update_campaign_status', { userId, campaignId: ACTIVE, status: 'PAUSED' }, { apiKey });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.results).toMatchObject({
      success: false,
      code: 'EU_POLITICAL_DECLARATION_REQUIRED',
      campaignIds: [ACTIVE, PAUSED],
      error: expect.stringContaining('declare_eu_political_advertising'),
    });
    const budget = await call('/searchads/edit_campaign', { userId, campaignId: ACTIVE, editLevel: 'BUDGET', amount: '60' }, { apiKey });
    expect(budget.body.results).toMatchObject({ success: false, code: 'EU_POLITICAL_DECLARATION_REQUIRED', campaignIds: [ACTIVE, PAUSED] });

    // the tenant heard once, whatever the number of refusals
    const listed = (await call('/tenant/list_webhook_events', {}, { apiKey })).body.results.events as Array<{ type: string }>;
    expect(listed.filter((event) => event.type === 'searchads.declaration_required')).toHaveLength(1);
    const notice = await eventually(async () => webhookEvents(receiver.received).find((event) => event.type === 'searchads.declaration_required'));
    expect(notice.data).toEqual({ userId, customerId, campaignIds: [ACTIVE, PAUSED] });

    const declared = await call('/searchads/declare_eu_political_advertising', { userId, containsEuPoliticalAdvertising: false }, { apiKey });
    expect(declared.body.results).toEqual({ success: true, declared: [ACTIVE, PAUSED] });
    const declaration = (await mutatesOf(customerId)).find((request) => request.path.endsWith('campaigns:mutate') && request.body.includes('contains_eu'));
    expect(JSON.parse(declaration?.body ?? '{}')).toEqual({
      operations: [ACTIVE, PAUSED].map((id) => ({
        update: { resourceName: `customers/${customerId}/campaigns/${id}`, containsEuPoliticalAdvertising: 'DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING' },
        updateMask: 'contains_eu_political_advertising',
      })),
    });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'campaign.eu_political_declared' }, { apiKey });
    expect(audit.body.results.events).toEqual([expect.objectContaining({ outcome: 'succeeded', platform: 'searchads' })]);

    const again = await call('/searchads/update_campaign_status', { userId, campaignId: ACTIVE, status: 'PAUSED' }, { apiKey });
    expect(again.body.results).toMatchObject({ success: true, status: 'PAUSED', changed: true });
    // nothing left to declare: an empty answer, and no second audit event
    expect((await call('/searchads/declare_eu_political_advertising', { userId, containsEuPoliticalAdvertising: false }, { apiKey })).body.results).toEqual({
      success: true,
      declared: [],
    });
    expect((await call('/tenant/list_audit_events', { userId, action: 'campaign.eu_political_declared' }, { apiKey })).body.results.events).toHaveLength(1);
  });

  it('named campaigns only, and a bad body is refused with nothing sent', async () => {
    const { userId, customerId } = await blockedUser();
    const refused = await call(
      '/searchads/declare_eu_political_advertising',
      { userId, campaignIds: ['abc'], containsEuPoliticalAdvertising: 'no' },
      { apiKey },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['campaignIds.0', 'containsEuPoliticalAdvertising']);
    expect(await mutatesOf(customerId)).toEqual([]);
    const declared = await call(
      '/searchads/declare_eu_political_advertising',
      { userId, campaignIds: [PAUSED], containsEuPoliticalAdvertising: true },
      { apiKey },
    );
    expect(declared.body.results).toEqual({ success: true, declared: [PAUSED] });
    // one campaign still undeclared: the block holds, and names only it
    const paused = await call('/searchads/update_campaign_status', { userId, campaignId: ACTIVE, status: 'PAUSED' }, { apiKey });
    expect(paused.body.results).toMatchObject({ code: 'EU_POLITICAL_DECLARATION_REQUIRED', campaignIds: [ACTIVE] });
  });

  it('a whole search campaign (operation 9) in a blocked account answers the same in band, nothing made', async () => {
    const { userId } = await blockedUser();
    const created = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(created.status, created.text).toBe(200);
    expect(created.body.results).toMatchObject({ success: false, code: 'EU_POLITICAL_DECLARATION_REQUIRED', campaignIds: [ACTIVE, PAUSED] });
  });

  it('a rule refused by the block fails its action with the code, but is never disabled for it', async () => {
    const { userId } = await blockedUser();
    const rule = await createRule(apiKey, trippingRule(userId, 'searchads', [ACTIVE]));
    for (let run = 1; run <= 3; run++) {
      const [result] = await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
      expect(result?.actions[0]).toMatchObject({ outcome: 'failed', error: { code: 'EU_POLITICAL_DECLARATION_REQUIRED' } });
    }
    const [stored] = (await call('/optimize_me/list_rules', { userId }, { apiKey })).body.results.rules;
    expect(stored).toMatchObject({ enabled: true, consecutiveFailedRuns: 0 });
    expect(stored.disabledReason).toBeUndefined();
  });
});
