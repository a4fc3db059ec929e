import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate } from '../../shared/core/clock.ts';
import { startChildStack, type ChildStack } from '../helpers/child-stack.ts';

/**
 * The date-sensitive paths on a local stack whose clock runs a year ahead of today (the whole stack:
 * functions, gateway and sandboxes read the one injected clock). What holds there holds on any day.
 */
const YEAR_MS = 365 * 86_400_000;
const apiKey = 'clock-ahead-test-key-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-clock-ahead-'));
let stack: ChildStack;
let sandboxClockUrl = '';

beforeAll(async () => {
  stack = await startChildStack(dataDir, apiKey, { LOCAL_CLOCK_OFFSET_DAYS: '365', LOG_LEVEL: 'SILENT' });
  sandboxClockUrl = `${stack.output().match(/searchads\s+(http:\/\/\S+)/)?.[1]}/__sandbox/clock`;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The stack's own "now" (epoch ms), a year ahead of this process's. */
async function stackNow(): Promise<number> {
  return ((await (await fetch(sandboxClockUrl)).json()) as { now: number }).now;
}

const campaign = (startDate: string, endDate: string) => ({
  userId: 'demo-user',
  objective: 'TRAFFIC',
  campaignName: `Year ahead ${Math.random().toString(36).slice(2, 10)}`,
  dailyBudget: '20',
  startDate,
  endDate,
  keywords: [{ text: 'furnace repair', match_type: 'EXACT' }],
  locations: ['2840'],
  languages: ['en'],
  callouts: ['24/7 Emergency Service'],
  ads: [
    {
      url: 'https://www.example.com/',
      headlines: ['Furnace Repair', 'Same-Day Service', 'Licensed Techs'],
      descriptions: ['Fast and reliable repair.', 'Upfront pricing.'],
    },
  ],
});

describe('a year ahead', () => {
  it('the stack runs on the moved clock', async () => {
    const now = await stackNow();
    expect(now - Date.now()).toBeGreaterThan(YEAR_MS - 60_000);
    expect(now - Date.now()).toBeLessThan(YEAR_MS + 60_000);
  });

  it('a search campaign starting tomorrow is created, upstream too; one starting on a day now past is refused', async () => {
    const now = await stackNow();
    const created = await post('/searchads/create_search_campaign', campaign(isoDate(now, 1), isoDate(now, 31)));
    expect(created.status).toBe(200);
    expect(created.body.results).toMatchObject({ success: true, campaignResourceName: expect.stringMatching(/^customers\/\d+\/campaigns\/\d+$/) });

    const past = await post('/searchads/create_search_campaign', campaign(isoDate(Date.now(), 1), isoDate(Date.now(), 31)));
    expect(past.status).toBe(400);
    expect(past.body.results.details).toEqual([{ path: 'startDate', message: 'must not be in the past' }]);
  });

  it('statistics default to the 30 days ending the stack’s today, and the sandbox has figures for them', async () => {
    const now = await stackNow();
    const response = await post('/searchads/get_search_ads_result', { userId: 'demo-user', campaignId: '21234567890' });
    expect(response.status).toBe(200);
    const days = response.body.results.stats.map((item: { dateStart: string }) => item.dateStart);
    expect(days.length).toBeGreaterThan(20);
    expect(days[0] >= isoDate(now, -30)).toBe(true);
    expect(days.at(-1) <= isoDate(now)).toBe(true);
  });

  it('a recorded optimization and a new user carry the stack’s time', async () => {
    const recorded = await post('/optimize_me/record_campaign_optimization', {
      userId: 'demo-user',
      campaignId: 'year-ahead',
      campaignName: 'Year ahead',
      platform: 'social',
      optimizationStatus: 'ACTIVE',
      startDate: Date.now(),
      entry: { adId: 'a', adSetId: 's', headlines: [], primaryTexts: [], images: [], timestamp: Date.now() },
    });
    expect(recorded.status).toBe(200);
    const history = await post('/optimize_me/get_campaign_optimization_history', { userId: 'demo-user', campaignId: 'year-ahead' });
    const stamped = history.body.results.campaign.history[0].lastUpdate._seconds * 1000;
    expect(Math.abs(stamped - (await stackNow()))).toBeLessThan(60_000);

    const user = await post('/users/create_user', { connections: {} });
    const profile = await post('/users/get_profile', { userId: user.body.results.userId });
    expect(Math.abs(Date.parse(profile.body.results.user.createdAt) - (await stackNow()))).toBeLessThan(60_000);
  });
});
