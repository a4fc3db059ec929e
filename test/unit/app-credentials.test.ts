import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The cloud's way to the app credentials and the connection key: Secrets Manager, read once per cold
 * start. Here a loopback server speaks its JSON protocol (GetSecretValue), so the real SDK client runs.
 */
const CREDENTIALS_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:app-credentials';
const KEY_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:connection-key';
const secrets: Record<string, string> = {
  [CREDENTIALS_ARN]: JSON.stringify({
    SOCIAL_APP_SECRET: 'from-secrets-manager',
    SEARCHADS_CLIENT_ID: 'client-id',
    UNRELATED: 'not taken',
    PROFESSIONAL_CLIENT_ID: '',
  }),
  [KEY_ARN]: 'connection-key-from-secrets-manager-0123456789',
};
const asked: Array<{ target: string; secretId: string }> = [];
let failNext = false;
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { SecretId } = JSON.parse(body) as { SecretId: string };
      asked.push({ target: String(request.headers['x-amz-target']), secretId: SecretId });
      if (failNext) {
        failNext = false;
        response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        return response.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such secret' }));
      }
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ ARN: SecretId, Name: SecretId, SecretString: secrets[SecretId] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'unit',
    AWS_SECRET_ACCESS_KEY: 'unit',
    APP_CREDENTIALS_SECRET_ARN: CREDENTIALS_ARN,
    CONNECTION_KEY_SECRET_ARN: KEY_ARN,
  });
});
const envBefore = { ...process.env };
afterAll(async () => {
  // the next file of this worker sees the environment it would have had
  for (const name of Object.keys(process.env)) if (!(name in envBefore)) delete process.env[name];
  Object.assign(process.env, envBefore);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('app credentials from Secrets Manager', () => {
  it('a failed read is retried by the next call; the values then become configuration, read once', async () => {
    // the configuration read for the first time: this file runs in a process of its own (vitest.config.ts, unit-fresh)
    const { loadAppCredentials } = await import('../../shared/secrets/app-credentials.ts');
    const { config } = await import('../../shared/core/config.ts');
    failNext = true;
    await expect(loadAppCredentials()).rejects.toThrow();
    await loadAppCredentials();
    await loadAppCredentials();
    expect(asked.map((call) => call.secretId)).toEqual([CREDENTIALS_ARN, CREDENTIALS_ARN, KEY_ARN]);
    expect(asked.every((call) => call.target === 'secretsmanager.GetSecretValue')).toBe(true);
    expect(config()).toMatchObject({
      SOCIAL_APP_SECRET: 'from-secrets-manager',
      SEARCHADS_CLIENT_ID: 'client-id',
      CONNECTION_ENCRYPTION_KEY: secrets[KEY_ARN],
    });
    // an empty value is no value (what the environment says stays), and keys it does not know are not taken
    expect(config().PROFESSIONAL_CLIENT_ID).toBe(process.env.PROFESSIONAL_CLIENT_ID || undefined);
    expect(config()).not.toHaveProperty('UNRELATED');
  });
});
