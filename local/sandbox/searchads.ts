import { type Signer, signerTokensRoute } from './consent.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import { mutateBudgets, mutateCampaigns, searchCampaigns } from './searchads-campaigns.ts';
import { declarationBlock, hasUndeclared, markUndeclared } from './searchads-declaration.ts';
import { configureDataManager, dataManagerRoutes, type DataManagerState, newDataManagerState, statusError } from './searchads-datamanager.ts';
import {
  consentAnswer,
  consentScreen,
  exchangeCode,
  listAccessibleCustomers,
  newSearchadsConnectState,
  personOfRefreshToken,
  revoke,
  CUSTOMERS,
  searchAccounts,
} from './searchads-connect.ts';
import { mutate } from './searchads-mutate.ts';
import { searchStream } from './searchads-reports.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';

import { type Row, type Account, type SearchadsState, requestId, newAccount, failure, invalid } from './searchads-state.ts';

/**
 * The search-ads sandbox (docs/platforms.md, "Search ads"): the OAuth token endpoint, an atomic
 * `googleAds:mutate` that checks bodies against the platform's protos and its server-side rules,
 * and a `googleAds:searchStream` that answers the service's daily query with 90 days of metrics for
 * seeded campaigns and for campaigns created through it. Refresh tokens `1//…` are valid (REVOKED in
 * one → invalid_grant); access tokens are the ones it issued.
 */
const bearerOf = (request: SandboxRequest) => request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1] ?? '';

function authenticate(request: SandboxRequest, state: SearchadsState): SandboxResponse | undefined {
  const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1];
  const expiresAt = token ? state.tokens.get(token) : undefined;
  if (!expiresAt || expiresAt < clock.now()) {
    return failure(401, 'UNAUTHENTICATED', [
      { errorCode: { authenticationError: expiresAt ? 'OAUTH_TOKEN_EXPIRED' : 'OAUTH_TOKEN_INVALID' }, message: 'Authentication of the request failed.' },
    ]);
  }
  const login = request.headers['login-customer-id'];
  if (login !== undefined && !/^\d{10}$/.test(login)) {
    return failure(400, 'INVALID_ARGUMENT', [
      { errorCode: { headerError: 'INVALID_LOGIN_CUSTOMER_ID' }, message: 'The login customer ID could not be validated.' },
    ]);
  }
  return undefined;
}

const ADWORDS = 'https://www.googleapis.com/auth/adwords';
const DATA_MANAGER = 'https://www.googleapis.com/auth/datamanager';
/** the scopes of the access tokens it issued: a refresh token holding ADS_ONLY was granted the Ads scope alone */
const tokenScopes = new Map<string, string[]>();

function issueAccessToken(state: SearchadsState, person: Signer, scopes: string[] = [ADWORDS, DATA_MANAGER]): string {
  const access = `ya29.sandbox-${randomBytes(24).toString('base64url')}`;
  state.tokens.set(access, clock.now() + 3599 * 1000);
  state.connect.accessPeople.set(access, person);
  tokenScopes.set(access, scopes);
  return access;
}

/** A Data Manager call: a token it issued, granted the Data Manager scope (contracts: datamanager §1.7). */
function authorizeDataManager(request: SandboxRequest, state: SearchadsState): SandboxResponse | undefined {
  const token = bearerOf(request);
  const expiresAt = state.tokens.get(token);
  if (!expiresAt || expiresAt < clock.now())
    return statusError(401, 'UNAUTHENTICATED', 'ACCESS_TOKEN_EXPIRED', 'Request had invalid authentication credentials.');
  if (!(tokenScopes.get(token) ?? []).includes(DATA_MANAGER))
    return {
      ...statusError(403, 'PERMISSION_DENIED', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'Request had insufficient authentication scopes.'),
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope"' },
    };
  return undefined;
}

const token: (request: SandboxRequest, state: SearchadsState) => SandboxResponse = (request, state) => {
  const form = request.fields as Record<string, string>;
  if (form.client_id !== SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID || form.client_secret !== SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_SECRET) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
  }
  if (form.grant_type === 'authorization_code')
    return exchangeCode(form, state.connect, form.client_id, (person) => issueAccessToken(state, person), clock.now());
  if (form.grant_type !== 'refresh_token') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' } };
  if (!form.refresh_token?.startsWith('1//') || form.refresh_token.includes('REVOKED') || state.connect.revokedRefreshTokens.has(form.refresh_token)) {
    return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
  }
  const scopes = form.refresh_token.includes('ADS_ONLY') ? [ADWORDS] : [ADWORDS, DATA_MANAGER];
  const access = issueAccessToken(state, personOfRefreshToken(state.connect, form.refresh_token), scopes);
  return { status: 200, body: { access_token: access, expires_in: 3599, scope: scopes.join(' '), token_type: 'Bearer' } };
};

export interface SearchadsSandbox extends Sandbox {
  state: SearchadsState;
  dataManager: DataManagerState;
}

/**
 * `accountsFile`: where the customers' campaigns and budgets are kept across restarts (the data folder);
 * `dataManagerFile`: the Customer Match lists and accepted requests.
 */
export async function startSearchadsSandbox(options: { accountsFile?: string; dataManagerFile?: string } = {}): Promise<SearchadsSandbox> {
  const state: SearchadsState = {
    tokens: new Map(),
    connect: newSearchadsConnectState(),
    accounts: new Map([[DEMO_CONNECTIONS.searchads.customerId, newAccount(DEMO_CONNECTIONS.searchads.customerId)]]),
    commits: 0,
  };
  const { accountsFile } = options;
  if (accountsFile && existsSync(accountsFile)) {
    const saved = JSON.parse(readFileSync(accountsFile, 'utf8')) as Array<
      [string, { nextId: number; resources: Array<[string, { kind: string; data: Row }]> }]
    >;
    state.accounts = new Map(saved.map(([cid, account]) => [cid, { nextId: account.nextId, resources: new Map(account.resources) }]));
  }
  const save = () => {
    if (accountsFile)
      writeFileSync(
        accountsFile,
        JSON.stringify([...state.accounts].map(([cid, account]) => [cid, { nextId: account.nextId, resources: [...account.resources] }])),
      );
  };
  const dataManager = loadDataManager(options.dataManagerFile);
  const accountOf = (cid: string) => {
    const account = state.accounts.get(cid) ?? newAccount(cid);
    state.accounts.set(cid, account);
    return account;
  };
  const committing =
    (handle: (request: SandboxRequest, state: SearchadsState, cid: string) => SandboxResponse) =>
    (request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse => {
      const commits = state.commits;
      const answer = handle(request, state, cid);
      if (state.commits !== commits) save();
      return answer;
    };
  const control =
    (mutateWith: (request: SandboxRequest, account: Account, cid: string) => { answer: SandboxResponse; committed: boolean }) =>
    (request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse => {
      const { answer, committed } = mutateWith(request, accountOf(cid), cid);
      if (committed) {
        state.commits++;
        save();
      }
      return { ...answer, headers: { 'request-id': requestId(), ...answer.headers } };
    };
  /** a campaign or budget mutate of an account with an undeclared campaign is refused whole (contracts: search ads §2.3a) */
  const blockedUntilDeclared =
    (field: 'operations' | 'mutateOperations', handle: (request: SandboxRequest, state: SearchadsState, cid: string) => SandboxResponse) =>
    (request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse => {
      const operations = (request.fields[field] as Row[] | undefined) ?? [];
      const blocked = declarationBlock(accountOf(cid), operations, invalid, field === 'operations' ? 'operations' : 'mutate_operations');
      return blocked ? { ...blocked, headers: { 'request-id': requestId(), ...blocked.headers } } : handle(request, state, cid);
    };
  const ads = (pattern: RegExp, handle: (request: SandboxRequest, state: SearchadsState, cid: string) => SandboxResponse): SandboxRoute => ({
    method: 'POST',
    path: pattern,
    handle: (request, params) => {
      if (params.version !== 'v26' && params.version !== 'v25') {
        return failure(404, 'NOT_FOUND', [{ errorCode: { requestError: 'UNSUPPORTED_VERSION' }, message: `Version ${params.version} is not supported.` }]);
      }
      return authenticate(request, state) ?? handle(request, state, params.cid as string);
    },
  });
  const routes: SandboxRoute[] = [
    { method: 'POST', path: /^\/token$/, handle: (request) => token(request, state) },
    ads(/^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:mutate$/, blockedUntilDeclared('mutateOperations', committing(mutate))),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/campaigns:mutate$/,
      blockedUntilDeclared(
        'operations',
        control((request, account) => mutateCampaigns(request, account, invalid)),
      ),
    ),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/campaignBudgets:mutate$/,
      blockedUntilDeclared(
        'operations',
        control((request, account, cid) => mutateBudgets(request, account, cid, invalid)),
      ),
    ),
    ads(/^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:searchStream$/, searchStream),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:search$/,
      (request, state, cid) =>
        // the connect flow's customers answer as the connect flow knows them; any other is an account of the control sandbox
        (CUSTOMERS[cid] || !/\bFROM\s+customer\s*$/i.test(String(request.fields.query ?? ''))
          ? searchAccounts(request, state.connect, bearerOf(request), cid, failure)
          : undefined) ??
        searchCampaigns(request, accountOf(cid), cid, invalid) ??
        invalid(
          'queryError',
          'PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE',
          'This sandbox answers googleAds:search for the customer, customer_client, campaign and currency_constant resources only.',
        ),
    ),
    {
      method: 'GET',
      path: /^\/(?<version>v\d+)\/customers:listAccessibleCustomers$/,
      handle: (request) => authenticate(request, state) ?? listAccessibleCustomers(bearerOf(request), state.connect),
    },
    { method: 'GET', path: /^\/o\/oauth2\/v2\/auth$/, handle: (request) => consentScreen(request, state.connect, SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID) },
    {
      method: 'POST',
      path: /^\/o\/oauth2\/v2\/auth$/,
      handle: (request) => consentAnswer(request, state.connect, SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID),
    },
    { method: 'POST', path: /^\/revoke$/, handle: (request) => revoke(request.fields as Record<string, string>, state.connect) },
    ...dataManagerRoutes(dataManager, (request) => authorizeDataManager(request, state), accountOf, hasUndeclared).map((route) => ({
      ...route,
      handle: (request: SandboxRequest, params: Record<string, string>) => {
        const answer = route.handle(request, params);
        if (request.method === 'POST') saveDataManager(dataManager, options.dataManagerFile);
        return answer;
      },
    })),
  ];
  const seedCampaigns = (cid: string, count: number) => {
    const account = accountOf(cid);
    const ids = Array.from({ length: count }, (_, index) => {
      const budget = `customers/${cid}/campaignBudgets/${account.nextId++}`;
      const id = String(31_000_000_000 + account.nextId++);
      account.resources.set(budget, {
        kind: 'campaignBudgets',
        data: { name: `Scale ${index + 1}`, amountMicros: '25000000', period: 'DAILY', explicitlyShared: false, status: 'ENABLED' },
      });
      account.resources.set(`customers/${cid}/campaigns/${id}`, {
        kind: 'campaigns',
        data: { campaignBudget: budget, name: `Scale ${index + 1}`, status: 'ENABLED', servingStatus: 'SERVING', display: false },
      });
      return id;
    });
    save();
    return ids;
  };
  const sandbox = await startSandbox(
    'searchads',
    routes,
    (request) => ({
      status: 404,
      body: { error: { code: 404, message: `The requested URL ${request.path} was not found on this server.`, status: 'NOT_FOUND' } },
    }),
    0,
    seedCampaigns,
    [
      { method: 'POST', path: /^\/__sandbox\/undeclared$/, handle: (request) => markUndeclared(request.fields as Row, accountOf) },
      { method: 'POST', path: /^\/__sandbox\/datamanager$/, handle: (request) => configureDataManager(dataManager, request.fields as Row) },
      { method: 'GET', path: /^\/__sandbox\/conversions$/, handle: () => ({ status: 200, body: dataManager.received }) },
      signerTokensRoute(
        () => state.connect.refreshPeople,
        () => state.connect.accessPeople,
      ),
    ],
  );
  return Object.assign(sandbox, { state, dataManager });
}

/** Lists with more members than this keep only their count across a restart (a benchmark's million would make every save slow). */
const KEEP_MEMBERS_UP_TO = 50_000;

function saveDataManager(dm: DataManagerState, file: string | undefined): void {
  if (!file) return;
  const lists = [...dm.lists].map(([cid, lists]) => [
    cid,
    [...lists.values()].map((list) => ({ ...list, members: list.members.size <= KEEP_MEMBERS_UP_TO ? [...list.members] : [] })),
  ]);
  writeFileSync(file, JSON.stringify({ nextListId: dm.nextListId, processingMs: dm.processingMs, lists, requests: [...dm.requests], received: dm.received }));
}

function loadDataManager(file: string | undefined): DataManagerState {
  const dm = newDataManagerState();
  if (!file || !existsSync(file)) return dm;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    nextListId: number;
    processingMs: number;
    lists: Array<[string, Array<Record<string, unknown> & { id: string; members: Array<[string, number]> }>]>;
    requests: Array<[string, never]>;
    received?: DataManagerState['received'];
  };
  dm.nextListId = saved.nextListId;
  dm.processingMs = saved.processingMs;
  dm.requests = new Map(saved.requests);
  dm.received = saved.received ?? [];
  dm.lists = new Map(saved.lists.map(([cid, lists]) => [cid, new Map(lists.map((list) => [list.id, { ...list, members: new Map(list.members) } as never]))]));
  return dm;
}
