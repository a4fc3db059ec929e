import { systemActor, withAuditScope } from '../shared/core/audit.ts';

/**
 * What `npm run admin -- <command>` does, against whatever store the process is set up for: the
 * deployed table (TABLE_NAME), the local data folder opened by the CLI, or, while `npm start` runs,
 * the running stack itself (local/admin-socket.ts hands it the command). Each write is audited
 * with the operator as actor (`system` / `admin_cli`).
 */
export const COMMANDS: Record<string, string> = {
  'create-api-key': `npm run admin -- create-api-key --tenant <name>
  Creates a tenant and its API key; prints {"tenantId","apiKey"}. The key is shown this once.`,
  'list-api-keys': `npm run admin -- list-api-keys
  Lists every key's id, tenant and creation date, never a key.`,
  'revoke-api-key': `npm run admin -- revoke-api-key --key-id <id>
  Requests with that key fail from then on (after the key cache of at most 30 s).`,
  audit: `npm run admin -- audit <tenant id or name> [--user <userId>] [--action <action>] [--since <ISO time>] [--until <ISO time>]
  Prints the tenant's audit events newest first, one JSON object a line: what list_audit_events answers.`,
  'run-rules': `npm run admin -- run-rules
  One pass of the optimizer's scheduler: every due rule runs. With \`npm start\` running, that stack runs them (its log says
  so); with it stopped, the local stack is started for the pass and stopped once the runs are done.`,
  'refresh-connections': `npm run admin -- refresh-connections
  One run of the connection lifecycle: renews, checks and marks every connection.`,
  'subscribe-platform-webhooks': `npm run admin -- subscribe-platform-webhooks
  Subscribes the social app to its Pages' lead events at {PUBLIC_BASE_URL}/platform-webhooks/social (a deploy step;
  \`npm start\` does it against its sandbox).`,
};

export const USAGE = `usage: npm run admin -- <command> [options]   (npm run admin -- <command> --help for one)

${Object.values(COMMANDS).join('\n\n')}

Store: the local data folder (DATA_DIR, default .data), through the running \`npm start\` when it runs, or DynamoDB as
the AWS SDK is configured when TABLE_NAME is set (a deployed stage's table).`;

/** A command refused as given (exit code 2), with what to do. */
export class AdminRefusal extends Error {}

export interface AdminRequest {
  command: string;
  positionals: string[];
  values: { tenant?: string; 'key-id'?: string; user?: string; action?: string; since?: string; until?: string };
}

/** Runs one command; each line it prints goes to `print`. */
export function executeAdminCommand(request: AdminRequest, print: (line: string) => void): Promise<void> {
  return withAuditScope({ actor: systemActor('admin_cli') }, () => execute(request, print));
}

async function execute({ command, positionals, values }: AdminRequest, print: (line: string) => void): Promise<void> {
  const keys = await import('../shared/store/api-keys.ts');
  if (command === 'audit') {
    const named = positionals[1];
    if (!named) throw new AdminRefusal(COMMANDS.audit);
    const tenantId = named.startsWith('tn_') ? named : await keys.findTenantByName(named);
    if (!tenantId) throw new AdminRefusal(`No tenant ${named}.`);
    await printAuditLog(tenantId, values, print);
  } else if (command === 'run-rules') {
    const { handler } = await import('../functions/workers/schedule-rules/handler.ts');
    print(JSON.stringify(await handler()));
  } else if (command === 'refresh-connections') {
    const { handler } = await import('../functions/workers/refresh-connections/handler.ts');
    print(JSON.stringify(await handler()));
  } else if (command === 'subscribe-platform-webhooks') {
    const { loadAppCredentials } = await import('../shared/secrets/app-credentials.ts');
    await loadAppCredentials();
    const { subscribePlatformWebhooks } = await import('../functions/use-cases/leads/platform-webhooks.ts');
    print(JSON.stringify(await subscribePlatformWebhooks()));
  } else if (command === 'create-api-key') {
    const tenant = values.tenant?.trim();
    if (!tenant || !/^[\w.-]{1,64}$/.test(tenant)) throw new AdminRefusal('--tenant <name> is required: 1 to 64 letters, digits, . _ or -');
    const { tenantId, apiKey } = await keys.createApiKey(tenant);
    print(JSON.stringify({ tenantId, apiKey }));
  } else if (command === 'list-api-keys') {
    for (const listing of await keys.listApiKeys()) print(JSON.stringify(listing));
  } else if (command === 'revoke-api-key') {
    const keyId = values['key-id'];
    if (!keyId) throw new AdminRefusal('--key-id <id> is required (see list-api-keys)');
    if (!(await keys.revokeApiKey(keyId))) throw new AdminRefusal(`No API key with id ${keyId}.`);
    print(JSON.stringify({ keyId, revoked: true }));
  } else throw new AdminRefusal(USAGE);
}

/** Every page of the tenant's audit log, through the listing the API answers (the same filters, checked the same way). */
async function printAuditLog(tenantId: string, options: AdminRequest['values'], print: (line: string) => void): Promise<void> {
  const { listAuditEventsRequest } = await import('../functions/list-audit-events/schema.ts');
  const { listAuditEvents } = await import('../shared/store/audit-events.ts');
  const parsed = listAuditEventsRequest.safeParse({ userId: options.user, action: options.action, since: options.since, until: options.until });
  if (!parsed.success) throw new AdminRefusal(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'));
  let pagination = '';
  do {
    const page = await listAuditEvents(tenantId, parsed.data, pagination);
    for (const event of page.events) print(JSON.stringify(event));
    pagination = page.paging.next ?? '';
  } while (pagination);
}
