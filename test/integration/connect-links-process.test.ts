import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { BrowserSession, connectThroughLink, createLink, type Platform } from '../helpers/connect.ts';

/**
 * Connect links against `npm start` as its own process, logging at DEBUG: every code, state, verifier
 * and token that crossed the wire is looked for in everything the process printed and in every answer
 * a client or browser got. And time, moved on the stack's own clock: a state lives 10 minutes, a link
 * 24 hours.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-connect-'));
const apiKey = 'connect-process-demo-key-0123456789';
const REDIRECT = 'http://127.0.0.1:9/connected';
let child: ChildStack;
beforeAll(async () => {
  child = await startChildStack(dataDir, apiKey);
  await post('/tenant/update_settings', { redirectUris: [REDIRECT] });
}, 60_000);
afterAll(async () => {
  await child?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<string> {
  const response = await fetch(`${child.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.text();
}
const newUserId = async () => (JSON.parse(await post('/users/create_user', { connections: {} })) as { results: { userId: string } }).results.userId;

/** Every secret value a recorded upstream request carried (`names` of its fields, and bearer tokens). */
function secretsIn(requests: RecordedRequest[], names: string[]): string[] {
  const found = new Set<string>();
  for (const request of requests) {
    const fields = { ...request.query, ...Object.fromEntries(new URLSearchParams(request.body)) };
    for (const name of names) {
      const value = fields[name];
      if (value && value.length >= 8) found.add(value);
    }
    const bearer = request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1];
    if (bearer) found.add(bearer);
  }
  return [...found];
}

describe('connect links in the running service', () => {
  it('no code, state, verifier or token reaches a log line, a response or a URL we send a browser to', async () => {
    const userId = await newUserId();
    const sandboxes = new Map<Platform, string>();
    const answers: string[] = [];
    const callbackStates: string[] = [];
    for (const [platform, person] of [
      ['social', 'ben'],
      ['searchads', 'ben'],
      ['professional', 'ana'],
    ] as const) {
      const choose = { social: { accountId: '384756109384757', pageId: '104857392018465' }, searchads: { accountId: '2345678901' }, professional: undefined }[
        platform
      ];
      const connected = await connectThroughLink({
        apiKey,
        userId,
        platform,
        redirectUri: REDIRECT,
        person,
        baseUrl: child.url,
        ...(choose ? { choose } : {}),
      });
      expect(connected.outcome.searchParams.get('status')).toBe('connected');
      sandboxes.set(platform, connected.consentUrl.origin);
      callbackStates.push(connected.callbackUrl.searchParams.get('state') as string);
      // what our service answered the browser: every hop but the sandbox's own consent screen and its redirect to us
      answers.push(...connected.browser.hops.filter((hop) => hop.url.startsWith(child.url)).map((hop) => `${hop.location ?? ''}\n${hop.body}`));
    }
    answers.push(await post('/users/get_profile', { userId }));
    const recorded: RecordedRequest[] = [];
    for (const origin of sandboxes.values()) recorded.push(...((await (await fetch(`${origin}/__sandbox/requests`)).json()) as RecordedRequest[]));
    const credentials = [
      'code',
      'code_verifier',
      'client_secret',
      'access_token',
      'fb_exchange_token',
      'refresh_token',
      'input_token',
      'token',
      'appsecret_proof',
    ];
    const secrets = secretsIn(recorded, credentials);
    expect(secrets.length).toBeGreaterThan(10);
    const output = child.output();
    expect(output).toContain('connect_callback'); // it did log the requests
    for (const secret of secrets) {
      expect(output.includes(secret), 'a secret value in the service’s output').toBe(false);
      for (const answer of answers) expect(answer.includes(secret), 'a secret value in an answer').toBe(false);
    }
    // the states ride in the browser's URLs by design, and are in no log line
    expect(callbackStates).toHaveLength(3);
    for (const state of callbackStates) expect(output.includes(state)).toBe(false);
  });

  it('a state older than 10 minutes is expired, and nothing is exchanged', async () => {
    const userId = await newUserId();
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT }, child.url);
    const consent = await browser.consent((await browser.request(link)).location as string, 'ana');
    const sandbox = new URL(consent.url).origin;
    await fetch(`${sandbox}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 10 * 60_000 + 1_000 }),
    });
    const code = new URL(consent.location as string).searchParams.get('code') as string;
    const back = await browser.request(consent.location as string);
    expect(Object.fromEntries(new URL(back.location as string).searchParams)).toEqual({ status: 'error', error: 'expired', platform: 'professional', userId });
    const exchanges = ((await (await fetch(`${sandbox}/__sandbox/requests`)).json()) as RecordedRequest[]).filter((request) => request.body.includes(code));
    expect(exchanges).toEqual([]);
  });

  it('a link older than 24 hours is expired; a link of a day less is not', async () => {
    const userId = await newUserId();
    const old = await createLink(apiKey, { userId, platform: 'social', redirectUri: REDIRECT, state: 'late' }, child.url);
    const browser = new BrowserSession();
    const first = await browser.request(old);
    const socialSandbox = new URL(first.location as string).origin;
    await fetch(`${socialSandbox}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 23 * 3_600_000 }),
    });
    expect((await browser.request(old)).location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v26\.0\/dialog\/oauth\?/);
    await fetch(`${socialSandbox}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 3_600_000 + 1_000 }),
    });
    const late = await browser.request(old);
    expect(Object.fromEntries(new URL(late.location as string).searchParams)).toEqual({
      status: 'error',
      error: 'expired',
      platform: 'social',
      userId,
      state: 'late',
    });
  });
});
