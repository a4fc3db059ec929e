import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';

/**
 * GET /docs in a real browser (Chromium's headless shell, installed by `npm test`'s pretest step): the page
 * lists every operation of the document and its "Test Request" panel sends a request that the local
 * stack answers with 200. Nothing is loaded from anywhere but the service itself.
 */
const { url: baseUrl, apiKey } = inject('stack');

let browser: Browser;
let page: Page;
const foreignRequests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.route('**/*', (route) => {
    const requested = route.request().url();
    if (requested.startsWith(baseUrl) || requested.startsWith('data:') || requested.startsWith('blob:')) return route.continue();
    foreignRequests.push(requested);
    return route.abort();
  });
  await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the API reference page', () => {
  it('lists every operation of the OpenAPI document', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.summary));
    expect(summaries.length).toBeGreaterThanOrEqual(13);
    // the page's buttons read at once (their accessible names, as a role query matches them: case-insensitive
    // substrings), again until every operation is drawn: one pass over the DOM a poll, not one query an operation
    const buttonNames = () =>
      page
        .locator('button, [role="button"]')
        .evaluateAll((buttons) =>
          buttons.map((button) => (button.getAttribute('aria-label') ?? button.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase()),
        );
    const missing = async () => {
      const names = await buttonNames();
      return summaries.filter((summary) => !names.some((name) => name.includes(summary.toLowerCase())));
    };
    await expect.poll(missing, { timeout: 60_000 }).toEqual([]);
  }, 90_000);

  it('sends a request from the "Test Request" panel and shows the 200 answer', async () => {
    // Found by their text, not their role: a role query computes the accessibility tree of a page of 80
    // operations, which took over 30 s on a busy CI machine. Clicked by their own click event: the page keeps
    // drawing operations for seconds after it loads, and a pointer click waits for its button to stand still
    await page.locator('button', { hasText: 'Read a user' }).first().dispatchEvent('click', undefined, { timeout: 60_000 });
    // CSS and text locators throughout: each role query computes the accessibility tree of the whole page
    const section = page.locator('section', { has: page.locator('h1, h2, h3, h4', { hasText: /^\s*Read a user\s*$/ }) }).last();
    await section.locator('button', { hasText: 'Test Request' }).dispatchEvent('click', undefined, { timeout: 60_000 });

    const client = page.locator('[role="dialog"], dialog');
    const keyField = client.getByLabel('Value', { exact: true }).first();
    await keyField.fill(apiKey, { timeout: 60_000 });
    const answered = page.waitForResponse((response) => response.url() === `${baseUrl}/users/get_profile` && response.request().method() === 'POST');
    await client
      .locator('button', { hasText: /^\s*Send\b/ })
      .first()
      .dispatchEvent('click', undefined, { timeout: 60_000 });
    const response = await answered;

    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-api-key']).toBe(apiKey);
    expect(JSON.parse(response.request().postData() ?? '{}')).toEqual({ userId: 'demo-user' });
    expect(await response.json()).toMatchObject({ success: true, results: { success: true, user: { userId: 'demo-user' } } });
    await expect.poll(() => client.getByText('200', { exact: false }).count()).toBeGreaterThan(0);
    // clicks in a browser drawing a page of 70 operations: on a busy CI machine each one can take seconds
  }, 90_000);

  it('loaded nothing from outside the service and threw no error', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
