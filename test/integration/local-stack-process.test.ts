import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin, startChildStack } from '../helpers/child-stack.ts';

/**
 * `npm start` and `npm run admin` as a user runs them: separate processes on one data folder.
 * Everything they print is captured, so the test can show that no token or API key leaks.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-process-'));
const demoKey = 'process-test-demo-key-0123456789';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function post(url: string, path: string, apiKey: string, body: string) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body });
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') };
}

describe('the local stack and the admin CLI as processes', () => {
  const secrets = {
    socialToken: 'EAAleakcheckSocialToken987654321',
    refreshToken: '1//leakcheck-refresh-token-1234',
    professionalToken: 'AQVleakcheckProfessionalToken55',
  };
  let tenantKey = '';
  let keyId = '';

  it('creates an API key that is printed once and listed without the key', async () => {
    const created = await runAdmin(dataDir, ['create-api-key', '--tenant', 'acme']);
    expect(created.code).toBe(0);
    const line = JSON.parse(created.stdout.trim()) as { tenantId: string; apiKey: string };
    expect(Object.keys(line).sort()).toEqual(['apiKey', 'tenantId']);
    tenantKey = line.apiKey;

    const listed = await runAdmin(dataDir, ['list-api-keys']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(tenantKey);
    const listing = listed.stdout
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row));
    expect(listing).toEqual([{ tenantId: line.tenantId, tenantName: 'acme', keyId: expect.stringMatching(/^key_/), createdAt: expect.any(String) }]);
    keyId = listing[0].keyId;
  });

  it('serves requests without any token or API key in its logs or responses, and stops cleanly on Ctrl-C', async () => {
    const stack = await startChildStack(dataDir, demoKey);
    const responses: string[] = [];
    const send = async (path: string, apiKey: string, body: string) => {
      const response = await post(stack.url, path, apiKey, body);
      responses.push(response.text);
      return response;
    };
    const connections = {
      social: { accessToken: secrets.socialToken, adAccountId: 'act_42' },
      searchads: { refreshToken: secrets.refreshToken, customerId: '1234567890' },
      professional: { accessToken: secrets.professionalToken, adAccountId: '77' },
    };
    const created = await send('/users/create_user', tenantKey, JSON.stringify({ userId: 'leak-check', connections }));
    expect(created.status).toBe(200);
    expect((await send('/users/get_profile', tenantKey, '{"userId":"leak-check"}')).status).toBe(200);
    // failures that carry secrets in what they refuse
    expect((await send('/users/create_user', tenantKey, JSON.stringify({ userId: 'leak-check', connections }))).status).toBe(409);
    expect(
      (await send('/users/create_user', tenantKey, `{"connections": {"social": {"accessToken": "${secrets.socialToken}", "adAccountId": 5}}}`)).status,
    ).toBe(400);
    expect((await send('/users/create_user', tenantKey, `{"connections": {"social": {"accessToken": "${secrets.socialToken}"`)).status).toBe(400);
    expect((await send('/users/get_profile', `${tenantKey}x`, '{"userId":"leak-check"}')).status).toBe(401);
    expect((await send('/users/get_profile', demoKey, '{"userId":"demo-user"}')).status).toBe(200);
    const tooLarge = await send('/users/create_user', tenantKey, JSON.stringify({ connections, padding: 'x'.repeat(7_000_000) }));
    expect(tooLarge.status).toBe(413);

    // contact lists: their e-mails, phones and names must not reach a log line
    const contactValues: string[] = [];
    for (const [path, field, sample, extra] of [
      ['/social/create_social_csv_audience', 'csvFile', 'social-contacts.csv', { audienceName: 'Leak check' }],
      ['/professional/create_csv_audience', 'csv', 'professional-contacts.csv', { type: 'USER_LIST_UPLOAD' }],
    ] as const) {
      const csv = readFileSync(new URL(`../../samples/${sample}`, import.meta.url), 'utf8');
      const rows = csv
        .trim()
        .split('\n')
        .slice(1, 40)
        .map((line) => line.split(','));
      contactValues.push(...rows.flatMap((cells) => cells.filter((cell) => cell.includes('@') || /\d{3}.*\d{3}/.test(cell))));
      const form = new FormData();
      form.append('userId', 'demo-user');
      for (const [name, value] of Object.entries(extra)) form.append(name, value);
      form.append(field, new Blob([csv], { type: 'text/csv' }), sample);
      const uploaded = await fetch(`${stack.url}${path}`, { method: 'POST', headers: { 'x-api-key': demoKey }, body: form });
      responses.push(await uploaded.text());
      expect(uploaded.status).toBe(200);
    }
    // a file with a bad row, whose value would be the tempting thing to log
    const bad = new FormData();
    bad.append('userId', 'demo-user');
    bad.append('audienceName', 'Bad rows');
    bad.append('csvFile', new Blob(['email\nleaky.value@nowhere.example\nnot-an-email-leaky\n'], { type: 'text/csv' }), 'bad.csv');
    const badResponse = await fetch(`${stack.url}/social/create_social_csv_audience`, { method: 'POST', headers: { 'x-api-key': demoKey }, body: bad });
    responses.push(await badResponse.text());
    contactValues.push('leaky.value@nowhere.example', 'not-an-email-leaky');
    expect(contactValues.length).toBeGreaterThan(20);

    const code = await stack.stop();
    expect(code).toBe(0);
    const output = stack.output();
    expect(output).toContain('SIGINT received; stopping.');

    // every request left a structured log line with its request id
    const logLines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThanOrEqual(7);
    for (const line of logLines) expect(JSON.parse(line)).toHaveProperty('requestId');
    expect(output).toContain(created.requestId as string);

    for (const secret of [...Object.values(secrets), tenantKey]) {
      expect(output).not.toContain(secret);
      for (const response of responses) expect(response).not.toContain(secret);
    }
    for (const value of contactValues) {
      expect(output).not.toContain(value);
      for (const response of responses) expect(response).not.toContain(value);
    }
    // the demo key is printed in the start banner on purpose, and nowhere else
    for (const line of logLines) expect(line).not.toContain(demoKey);
  });

  it('keeps users across a restart, and a revoked key stops working', async () => {
    const revoked = await runAdmin(dataDir, ['revoke-api-key', '--key-id', keyId]);
    expect(revoked.code).toBe(0);
    const listed = await runAdmin(dataDir, ['list-api-keys']);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row));
    expect(rows.find((row) => row.keyId === keyId)).toMatchObject({ tenantName: 'acme', revokedAt: expect.any(String) });

    const stack = await startChildStack(dataDir, demoKey);
    try {
      expect((await post(stack.url, '/users/get_profile', tenantKey, '{"userId":"leak-check"}')).status).toBe(401);
      const demo = await post(stack.url, '/users/get_profile', demoKey, '{"userId":"demo-user"}');
      expect(demo.status).toBe(200);
    } finally {
      expect(await stack.stop()).toBe(0);
    }
  });

  it('prints a tenant’s audit log for an operator, by name or id, with the API’s filters and no secret', async () => {
    const printed = await runAdmin(dataDir, ['audit', 'acme', '--action', 'user.created']);
    expect(printed.code, printed.stderr).toBe(0);
    const events = printed.stdout
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row));
    expect(events).toMatchObject([
      {
        action: 'user.created',
        actor: { type: 'api_key', id: keyId },
        userId: 'leak-check',
        changes: { connections: { to: ['professional', 'searchads', 'social'] } },
      },
    ]);
    for (const secret of Object.values(secrets)) expect(printed.stdout).not.toContain(secret);
    expect((await runAdmin(dataDir, ['audit', 'no-such-tenant'])).code).toBe(2);
    const badFilter = await runAdmin(dataDir, ['audit', 'acme', '--since', 'yesterday']);
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toContain('since');
  });

  it('runs admin commands through the running stack: a key made while it runs works at once, audited, and the log prints', async () => {
    const stack = await startChildStack(dataDir, demoKey);
    try {
      const created = await runAdmin(dataDir, ['create-api-key', '--tenant', 'while-running']);
      expect(created.code, created.stderr).toBe(0);
      const { apiKey, tenantId } = JSON.parse(created.stdout.trim()) as { apiKey: string; tenantId: string };
      expect((await post(stack.url, '/users/create_user', apiKey, '{"userId":"made-while-running"}')).status).toBe(200);
      const listed = await runAdmin(dataDir, ['list-api-keys']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(tenantId);
      expect(listed.stdout).not.toContain(apiKey);
      const audit = await runAdmin(dataDir, ['audit', 'while-running']);
      expect(audit.code, audit.stderr).toBe(0);
      const actions = audit.stdout
        .trim()
        .split('\n')
        .map((row) => JSON.parse(row) as { action: string; actor: { type: string; id: string } });
      expect(actions.map((event) => event.action)).toEqual(['user.created', 'api_key.created']);
      expect(actions[1]?.actor).toEqual({ type: 'system', id: 'admin_cli' });
      expect(audit.stdout).not.toContain(apiKey);
      expect((await runAdmin(dataDir, ['audit', 'no-such-tenant'])).code).toBe(2);
    } finally {
      await stack.stop();
    }
  });

  it('a client polling with the demo key from the first moment never meets a 401: the gateway holds requests until the demo tenant exists', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'ad-api-first-second-'));
    const probe = (await import('node:net')).createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise((resolve) => probe.close(resolve));
    const key = 'first-second-demo-key-0123456789';
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        try {
          statuses.push((await post(`http://127.0.0.1:${port}`, '/users/get_profile', key, '{"userId":"demo-user"}')).status);
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const stack = await startChildStack(fresh, key, { PORT: String(port), WEBHOOK_RECEIVER_PORT: '0' });
    try {
      while (!statuses.includes(200)) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      polling = false;
      await poller;
      await stack.stop();
      rmSync(fresh, { recursive: true, force: true });
    }
    expect(statuses).not.toContain(401);
  }, 90_000);

  it('starts no sandbox for a platform whose API URL is configured', async () => {
    const stack = await startChildStack(dataDir, demoKey, { SOCIAL_API_URL: 'http://127.0.0.1:9/v26.0' });
    try {
      const banner = stack.output();
      expect(banner).not.toMatch(/^\s+social\s+http/m);
      expect(banner).toMatch(/^\s+searchads\s+http/m);
      expect(banner).toMatch(/^\s+professional\s+http/m);
    } finally {
      await stack.stop();
    }
  });

  it('rejects an unknown command with its usage', async () => {
    const admin = await runAdmin(dataDir, ['drop-everything']);
    expect(admin.code).toBe(2);
    expect(admin.stderr).toContain('usage: npm run admin -- <command>');
    expect(admin.stderr).toContain('npm run admin -- create-api-key --tenant <name>');
  });

  it('answers --help, for the CLI and for each command, with its usage and exit 0', async () => {
    const help = await runAdmin(dataDir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('npm run admin -- refresh-connections');
    const one = await runAdmin(dataDir, ['revoke-api-key', '--help']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('revoke-api-key --key-id <id>');
    expect(one.stdout).not.toContain('create-api-key');
  });
});
