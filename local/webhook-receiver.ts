import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { clock } from '../shared/core/clock.ts';
import { scanItems } from '../shared/store/client.ts';
import { openWebhookSecret, type StoredWebhook } from '../shared/store/tenant-settings.ts';
import { keys } from '../shared/store/keys.ts';
import { keepIdleConnections } from './keep-alive.ts';

/**
 * A webhook endpoint for trying webhooks on a laptop with curl alone: it checks each delivery's
 * Standard Webhooks signature against the secret of every tenant whose webhook points here (it reads
 * them from the local table, as a client's own endpoint would hold its secret), and lists what it
 * received at GET /received. GET /connected shows what a connect link sent a person back with. `?fail=N` in the webhook URL answers 500 to the first N attempts of each
 * event, `?status=410` always answers that status: retries and 410 can be watched too.
 */
export interface ReceivedWebhook {
  receivedAt: string;
  path: string;
  webhookId: string | null;
  webhookTimestamp: string | null;
  type: string | null;
  attempt: number;
  verified: boolean;
  answeredStatus: number;
  body: unknown;
}

const TOLERANCE_SECONDS = 5 * 60;
const KEPT = 1_000;

async function secretsPointingAt(base: string): Promise<string[]> {
  const secrets: string[] = [];
  for await (const item of scanItems({
    FilterExpression: 'sk = :settings AND attribute_exists(webhook)',
    ExpressionAttributeValues: { ':settings': 'SETTINGS' },
  })) {
    const webhook = item.webhook as StoredWebhook;
    if (pointsAt(webhook.url, base)) secrets.push(openWebhookSecret(keys.tenantIdOf(item.pk as string), webhook));
  }
  return secrets;
}

/** Whether a webhook URL names this receiver, as 127.0.0.1 or localhost. */
function pointsAt(address: string, base: string): boolean {
  const url = new URL(address);
  return url.port === new URL(base).port && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The signature check of the standardwebhooks package, with the timestamp judged by the stack's clock (it may be moved). */
function verifies(secret: string, id: string, timestamp: string, signature: string, body: string): boolean {
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(clock.now() / 1000 - seconds) > TOLERANCE_SECONDS) return false;
  const expected = new Webhook(secret).sign(id, new Date(seconds * 1000), body);
  return signature.split(' ').includes(expected);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * GET /connected: a stand-in for a client's own page that a connect link sends the person back to;
 * it shows what the redirect carried (status, error, platform, userId, state).
 */
function sendConnectOutcome(url: URL, response: ServerResponse): void {
  const rows = [...url.searchParams]
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td><output id="${escapeHtml(name)}">${escapeHtml(value)}</output></td></tr>`)
    .join('');
  const connected = url.searchParams.get('status') === 'connected';
  response
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'", 'cache-control': 'no-store' })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connect outcome</title></head><body><h1>${connected ? 'Connected' : 'Not connected'}</h1><table>${rows}</table></body></html>`,
    );
}

export async function startWebhookReceiver(port: number): Promise<{ url: string; received: ReceivedWebhook[]; close(): Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  const attempts = new Map<string, number>();
  let base = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/received') {
      const id = url.searchParams.get('id');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.filter((entry) => !id || entry.webhookId === id)));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/connected') return void sendConnectOutcome(url, response);
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'GET, POST' }).end();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => (request.headers[name] as string | undefined) ?? null;
        const [id, timestamp, signature] = [header('webhook-id'), header('webhook-timestamp'), header('webhook-signature')];
        const secrets = id && timestamp && signature ? await secretsPointingAt(base).catch(() => []) : [];
        const verified = Boolean(id && timestamp && signature && secrets.some((secret) => verifies(secret, id, timestamp, signature, body)));
        const attempt = (attempts.get(id ?? '') ?? 0) + 1;
        attempts.set(id ?? '', attempt);
        const fail = Number(url.searchParams.get('fail') ?? 0);
        const forced = Number(url.searchParams.get('status') ?? 0);
        const answeredStatus = forced || (!verified ? 401 : attempt <= fail ? 500 : 200);
        let parsed: unknown = body;
        try {
          parsed = JSON.parse(body);
        } catch {
          // kept as text
        }
        received.push({
          receivedAt: new Date(clock.now()).toISOString(),
          path: url.pathname,
          webhookId: id,
          webhookTimestamp: timestamp,
          type: (parsed as { type?: string })?.type ?? null,
          attempt,
          verified,
          answeredStatus,
          body: parsed,
        });
        if (received.length > KEPT) received.shift();
        response.writeHead(answeredStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true, verified }));
      })();
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
