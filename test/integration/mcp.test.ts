import { randomInt } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../functions/routes.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { assertDocumented } from '../helpers/openapi-validator.ts';
import { createRule, trippingRule } from '../helpers/rules.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { findApiKey, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { stackNow, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { newSocialUser, socialSandboxCampaign } from '../helpers/social.ts';

/**
 * /mcp (docs/agents.md) with the official SDK's client, as an agent uses it, against the local stack:
 * the tools are the document's operations; a read answers what its route answers; a write under
 * `confirm` changes nothing until confirm_action, which applies it once (the platform's sandbox sees
 * one request, the audit the agent as origin); every refusal leaves nothing written.
 */
/** an ad account of this file's own: the service caches an account's reads, and other files time theirs */
const ACCOUNT = String(randomInt(1_600_000_000_000_000, 1_699_999_999_999_999));
const CLIENT_INFO = { name: 'agent-test', version: '1.2.3' };

interface ToolAnswer {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

async function agent(apiKey: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack().url}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey, ...headers } } }));
  return client;
}

const use = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;

/** A raw JSON-RPC POST, for what the SDK's client would never send. */
function post(body: unknown, headers: Record<string, string>) {
  return fetch(`${stack().url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
});

/** A campaign made in the social sandbox the way the platform makes one, with the user's token. */
const socialCampaign = (token: string) => socialSandboxCampaign(token, ACCOUNT);

/** The writes the service made to this campaign with the user's token (the status POSTs; a dry run's `validate_only` is none). */
const campaignWrites = async (token: string, campaignId: string) =>
  (await upstreamRequestsWith('social', token)).filter(
    (request) => request.method === 'POST' && request.path.endsWith(`/${campaignId}`) && !request.body?.includes('validate_only'),
  );

const setAgents = async (apiKey: string, agents: Record<string, unknown>) => {
  const response = await call('/tenant/update_settings', { agents }, { apiKey });
  expect(response.status, response.text).toBe(200);
};

async function auditOf(apiKey: string, action: string) {
  const response = await call('/tenant/list_audit_events', { action }, { apiKey });
  return response.body.results.events as Array<Record<string, any>>;
}

/** Changes the stored action a token names, as time or a crash would have left it. */
async function rewriteAction(key: string, confirmationToken: string, update: string, values?: Record<string, unknown>) {
  const owner = await findApiKey(hashApiKey(key));
  await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.agentAction(owner?.tenantId as string, confirmationToken.slice('mcpc_'.length)),
      UpdateExpression: update,
      ...(update.includes('#state') ? { ExpressionAttributeNames: { '#state': 'state' } } : {}),
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

/** The action a token names, as if its ten minutes had passed. */
const expireAction = async (key: string, confirmationToken: string) =>
  rewriteAction(key, confirmationToken, 'SET validUntil = :past', { ':past': new Date((await stackNow()) - 1_000).toISOString() });

/** The action as a confirmation that sent its write and died before it kept the answer leaves it. */
const loseAnswer = (key: string, confirmationToken: string) =>
  rewriteAction(key, confirmationToken, 'SET #state = :applying REMOVE sealedAnswer', { ':applying': 'applying' });

let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

describe('/mcp: tools from the document', () => {
  it('lists one tool per keyed JSON operation and confirm_action, with titles, 2020-12 input schemas and annotations', async () => {
    const client = await agent(apiKey);
    const { tools } = await client.listTools();
    const operations = documentedRoutes
      .filter(({ route, api }) => api && !('responses' in api) && !route.public && !route.browser && !route.inbound && !route.protocol)
      .map(({ route }) => route.operation);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...operations, 'confirm_action'].sort());
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('get_campaigns_list')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get('get_campaigns_list')?.outputSchema?.type).toBe('object');
    expect(byName.get('social_update_campaign_status')).toMatchObject({
      title: 'Pause, resume or delete a campaign (social)',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    });
    expect(byName.get('social_update_campaign_status')?.outputSchema).toBeUndefined();
    expect(byName.get('create_rule')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.get('get_profile')?.inputSchema.required).toEqual(['userId']);
    await client.close();
  });

  it('a read tool answers what its route answers', async () => {
    const { userId } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const client = await agent(apiKey);
    const answer = await use(client, 'get_profile', { userId });
    const route = await call('/users/get_profile', { userId }, { apiKey });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toEqual(route.body.results);
    expect(JSON.parse(answer.content[0]?.text ?? '')).toEqual(route.body.results);
    await client.close();
  });

  it('answers both current protocol versions', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const response = await post(initialize(version), { 'x-api-key': apiKey });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
      expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});

describe('/mcp: governed writes', () => {
  it('confirm: the preview is the dry run and writes nothing; confirm_action writes once; a repeat answers the first result', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const client = await agent(apiKey);
    const previewed = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    expect(previewed.isError).toBeFalsy();
    const { preview, confirmationToken, expiresAt } = previewed.structuredContent as Record<string, any>;
    expect(preview).toMatchObject({
      tool: 'social_update_campaign_status',
      arguments: { userId, campaignId, status: 'PAUSED' },
      dryRun: { campaignId, status: 'PAUSED', previousStatus: 'ACTIVE', changed: true, validateOnly: true },
      destructive: true,
    });
    expect(confirmationToken).toMatch(/^mcpc_[\w-]+$/);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    expect(await campaignWrites(token, campaignId)).toEqual([]);

    const applied = await use(client, 'confirm_action', { confirmationToken });
    expect(applied.structuredContent).toMatchObject({ campaignId, status: 'PAUSED', previousStatus: 'ACTIVE', changed: true });
    const again = await use(client, 'confirm_action', { confirmationToken });
    expect(again).toEqual(applied);
    const writes = await campaignWrites(token, campaignId);
    expect(writes).toHaveLength(1);
    expect(JSON.parse(writes[0]?.body ?? '{}')).toMatchObject({ status: 'PAUSED' });

    const [event] = (await auditOf(apiKey, 'campaign.status_changed')).filter((candidate) => candidate.target.id === campaignId);
    expect(event).toMatchObject({ changes: { status: { from: 'ACTIVE', to: 'PAUSED' } }, origin: { type: 'mcp', client: CLIENT_INFO } });
    await client.close();
  });

  it('two confirmations at once: one write', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const client = await agent(apiKey);
    const previewed = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    const { confirmationToken } = previewed.structuredContent as { confirmationToken: string };
    const answers = await Promise.all([1, 2, 3].map(() => use(client, 'confirm_action', { confirmationToken })));
    expect(answers.some((answer) => answer.structuredContent?.changed === true)).toBe(true);
    for (const answer of answers) if (answer.isError) expect(answer.content[0]?.text).toMatch(/^UNKNOWN_OUTCOME:/);
    expect(await campaignWrites(token, campaignId)).toHaveLength(1);
    await client.close();
  });

  it('a write without a dry run: the preview is the request; nothing is made until it is confirmed', async () => {
    const tenantKey = await newTenant();
    const { userId, token } = await newSocialUser(tenantKey, { adAccountId: ACCOUNT });
    const client = await agent(tenantKey);
    const rule = trippingRule(userId, 'social', [await socialCampaign(token)]);
    const previewed = await use(client, 'create_rule', rule);
    expect(previewed.isError, previewed.content[0]?.text).toBeFalsy();
    expect(previewed.structuredContent?.preview).toEqual({ tool: 'create_rule', title: 'Create a rule', arguments: rule, destructive: false });
    const listed = async () => (await call('/optimize_me/list_rules', { userId }, { apiKey: tenantKey })).body.results.rules as unknown[];
    expect(await listed()).toEqual([]);
    const applied = await use(client, 'confirm_action', { confirmationToken: previewed.structuredContent?.confirmationToken });
    expect(applied.isError, applied.content[0]?.text).toBeFalsy();
    await use(client, 'confirm_action', { confirmationToken: previewed.structuredContent?.confirmationToken });
    expect(await listed()).toHaveLength(1);
    await client.close();
  });

  it('a confirmation whose answer was lost: sent again with the same Idempotency-Key, replayed by the route; without one, UNKNOWN_OUTCOME', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const client = await agent(apiKey);
    const paused = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    const pauseToken = paused.structuredContent?.confirmationToken as string;
    const applied = await use(client, 'confirm_action', { confirmationToken: pauseToken });
    await loseAnswer(apiKey, pauseToken);
    const again = await use(client, 'confirm_action', { confirmationToken: pauseToken });
    expect(again.structuredContent).toEqual(applied.structuredContent);
    expect(await campaignWrites(token, campaignId)).toHaveLength(1);

    // delete_rule honours no Idempotency-Key: its lost answer is never sent again blind
    const { ruleId } = await createRule(apiKey, trippingRule(userId, 'social', [campaignId]));
    const deletion = await use(client, 'delete_rule', { userId, ruleId });
    const deletionToken = deletion.structuredContent?.confirmationToken as string;
    await rewriteAction(apiKey, deletionToken, 'SET #state = :applying', { ':applying': 'applying' });
    const unknown = await use(client, 'confirm_action', { confirmationToken: deletionToken });
    expect(unknown.content[0]?.text).toMatch(/^UNKNOWN_OUTCOME:/);
    const rules = (await call('/optimize_me/list_rules', { userId }, { apiKey })).body.results.rules as Array<{ ruleId: string }>;
    expect(rules.map((kept) => kept.ruleId)).toContain(ruleId);
    await client.close();
  });

  it('an unconfirmed write never happens: its token expires after 10 minutes', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const client = await agent(apiKey);
    const previewed = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    const { confirmationToken, expiresAt } = previewed.structuredContent as { confirmationToken: string; expiresAt: string };
    expect(Date.parse(expiresAt) - (await stackNow())).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(expiresAt) - (await stackNow())).toBeLessThanOrEqual(10 * 60_000);
    // ten minutes pass for this one action (the shared stack's clock is not moved under the other files' feet)
    await expireAction(apiKey, confirmationToken);
    const late = await use(client, 'confirm_action', { confirmationToken });
    expect(late.isError).toBe(true);
    expect(late.content[0]?.text).toMatch(/^CONFIRMATION_EXPIRED:/);
    expect(await campaignWrites(token, campaignId)).toEqual([]);
    await client.close();
  });

  it('another tenant’s token, a made-up token and arguments that do not fit: refused, nothing written', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const ours = await agent(apiKey);
    const previewed = await use(ours, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    const theirs = await agent(await newTenant());
    for (const confirmationToken of [previewed.structuredContent?.confirmationToken, 'mcpc_AAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-token']) {
      const refused = await use(theirs, 'confirm_action', { confirmationToken });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/^CONFIRMATION_INVALID:/);
    }
    const unfit = await use(ours, 'social_update_campaign_status', { userId, status: 'HALTED', colour: 'red' });
    expect(unfit.isError).toBe(true);
    const [first, details] = (unfit.content[0]?.text ?? '').split('\n');
    expect(first).toMatch(/^INVALID_REQUEST:/);
    expect(JSON.parse(details ?? '{}').details).toEqual(
      expect.arrayContaining([
        { path: 'campaignId', message: expect.stringContaining('required') },
        { path: 'colour', message: 'is not a field of this tool' },
        { path: 'status', message: expect.stringContaining('PAUSED') },
      ]),
    );
    // a refusal of the route itself (a campaign this user does not have) is a tool error with its code
    const unknownCampaign = await use(ours, 'social_update_campaign_status', { userId: 'nobody-here', campaignId, status: 'PAUSED' });
    expect(unknownCampaign.content[0]?.text).toMatch(/^USER_NOT_FOUND:/);
    await expect(ours.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(await campaignWrites(token, campaignId)).toEqual([]);
    await ours.close();
    await theirs.close();
  });

  it('off: write tools are not listed and are refused; apply: a write goes at once, the agent in its audit event', async () => {
    const tenantKey = await newTenant();
    const { userId, token } = await newSocialUser(tenantKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    await setAgents(tenantKey, { writes: 'off' });
    const client = await agent(tenantKey);
    const { tools } = await client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).toContain('get_campaigns_list');
    const refused = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    expect(refused.content[0]?.text).toMatch(/^AGENT_WRITES_OFF:/);
    expect(await campaignWrites(token, campaignId)).toEqual([]);

    await setAgents(tenantKey, { writes: 'apply' });
    const applied = await use(client, 'social_update_campaign_status', { userId, campaignId, status: 'PAUSED' });
    expect(applied.structuredContent).toMatchObject({ campaignId, status: 'PAUSED', changed: true });
    expect(await campaignWrites(token, campaignId)).toHaveLength(1);
    const [event] = await auditOf(tenantKey, 'campaign.status_changed');
    expect(event?.origin).toEqual({ type: 'mcp', client: CLIENT_INFO });
    const settingsEvents = await auditOf(tenantKey, 'settings.updated');
    expect(settingsEvents.map((settings) => settings.changes['agents.writes'])).toEqual([
      { from: 'off', to: 'apply' },
      { from: 'confirm', to: 'off' },
    ]);
    await client.close();
  });

  it('an action id sent straight to a route does not make a write look like an agent’s', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const response = await call(
      '/social/update_campaign_status',
      { userId, campaignId, status: 'PAUSED' },
      { apiKey, headers: { 'x-agent-action': 'AAAAAAAAAAAAAAAAAAAAAAAA' } },
    );
    expect(response.status).toBe(200);
    const [event] = (await auditOf(apiKey, 'campaign.status_changed')).filter((candidate) => candidate.target.id === campaignId);
    expect(event?.origin).toBeUndefined();
  });
});

describe('/mcp: refused before any JSON-RPC', () => {
  it('no key, an unknown key: 401; a foreign Origin: 403; a tenant’s allowed Origin passes; GET: 405', async () => {
    const keyless: Array<Record<string, string>> = [{}, { 'x-api-key': 'not-a-key-of-anyone' }, { authorization: 'Bearer not-a-key-of-anyone' }];
    for (const headers of keyless) {
      const response = await post(initialize('2025-11-25'), headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    expect((await post(initialize('2025-11-25'), { authorization: `Bearer ${apiKey}` })).status).toBe(200);
    const tenantKey = await newTenant();
    const foreign = await post(initialize('2025-11-25'), { 'x-api-key': tenantKey, origin: 'https://evil.example.com' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toContain('agents.allowedOrigins');
    await setAgents(tenantKey, { allowedOrigins: ['https://app.example.com'] });
    expect((await post(initialize('2025-11-25'), { 'x-api-key': tenantKey, origin: 'https://app.example.com' })).status).toBe(200);
    expect((await post(initialize('2025-11-25'), { 'x-api-key': tenantKey, origin: 'https://app.example.com.evil.example' })).status).toBe(403);
    const get = await fetch(`${stack().url}/mcp`, { headers: { 'x-api-key': apiKey, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('bodies that are no JSON-RPC message: a 4xx JSON-RPC error the document describes, never a 5xx', async () => {
    for (const raw of [
      '[1,2',
      '42',
      '"tools/list"',
      'null',
      '{}',
      '{"jsonrpc":"1.0","method":"ping","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":7}',
      // a batch: none since 2025-06-18, and one request must not fan out into any number of tool calls
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
    ]) {
      const response = await fetch(`${stack().url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': apiKey },
        body: raw,
      });
      const body = await response.json();
      expect(response.status, raw).toBeLessThan(500);
      assertDocumented('/mcp', 'POST', response.status, body, response.headers.get('content-type'));
      expect(body, raw).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    }
  });

  it('settings refuse an origin that is not one', async () => {
    const response = await call('/tenant/update_settings', { agents: { allowedOrigins: ['https://app.example.com/path'] } }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details[0].path).toBe('agents.allowedOrigins.0');
  });
});
