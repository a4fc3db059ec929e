import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';

/**
 * A whole connection clicked through in a real browser (Chromium's headless shell, as the
 * reference-page test) for each platform: the link, the sandbox's consent screen (who signs in, Allow),
 * the account picker when the person reaches several accounts, and the page the tenant's redirect URI
 * shows (the local stack's /connected). Then get_profile shows the connection.
 */
const { webhookReceiverUrl } = inject('stack');
const REDIRECT = `${webhookReceiverUrl}/connected`;

let browser: Browser;
let apiKey = '';
const pageErrors: string[] = [];
beforeAll(async () => {
  browser = await launchChromium();
  apiKey = await newTenant();
  await call('/tenant/update_settings', { redirectUris: [REDIRECT] }, { apiKey });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page };
}

async function openLink(page: Page, userId: string, platform: string, state: string): Promise<void> {
  const created = await call('/auth/create_link', { userId, platform, redirectUri: REDIRECT, state }, { apiKey });
  await page.goto(created.body.results.link as string);
}

const profileOf = async (userId: string) => (await call('/users/get_profile', { userId }, { apiKey })).body.results.user.connections;

describe('connecting in a browser', () => {
  it.each([
    ['social', { adAccountId: '284756109384756', pageId: '104857392018465', photoAccountId: '17841400000000001' }],
    ['searchads', { customerId: '1234567890' }],
    ['professional', { adAccountId: '500000001' }],
  ] as const)('%s: a person with one account allows and lands on the tenant’s page, connected', async (platform, stored) => {
    const userId = await newUser(apiKey);
    const { context, page } = await freshPage();
    await openLink(page, userId, platform, `state for ${platform} & co`);
    await page.getByLabel('Ana: one ad account').check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Connected');
    expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(REDIRECT);
    expect(await page.locator('output#state').textContent()).toBe(`state for ${platform} & co`);
    expect(await page.locator('output#platform').textContent()).toBe(platform);
    expect(page.url()).not.toMatch(/code=|access_token|refresh_token/);
    expect((await profileOf(userId))[platform]).toMatchObject({ status: 'active', connectedVia: 'link', ...stored });
    await context.close();
  });

  it.each([
    ['social', 'Trailhead Outdoor US', 'Trailhead Outdoor', { adAccountId: '384756109384757', pageId: '204857392018466' }],
    ['searchads', 'Trailhead Outdoor Search', undefined, { customerId: '2345678901', loginCustomerId: '9876543210' }],
    ['professional', 'Trailhead Outdoor Ads', undefined, { adAccountId: '500000002' }],
  ] as const)('%s: a person with several accounts chooses one on the picker', async (platform, account, page_, stored) => {
    const userId = await newUser(apiKey);
    const { context, page } = await freshPage();
    await openLink(page, userId, platform, 'picker');
    await page.getByLabel('Ben: several ad accounts').check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/^Choose your .* ad account$/);
    await page.getByRole('group', { name: 'Ad account' }).getByLabel(account).check();
    if (page_) await page.getByRole('group', { name: 'Page' }).getByLabel(page_).check();
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Connected');
    expect((await profileOf(userId))[platform]).toMatchObject({ status: 'active', ...stored });
    await context.close();
  });

  it('a person who presses Deny lands on the tenant’s page with access_denied, and nothing is connected', async () => {
    const userId = await newUser(apiKey);
    const { context, page } = await freshPage();
    await openLink(page, userId, 'searchads', 'deny');
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Not connected');
    expect(await page.locator('output#error').textContent()).toBe('access_denied');
    expect(await profileOf(userId)).toEqual({});
    await context.close();
  });

  it('threw no script error on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
