import { call } from './api.ts';

/**
 * A connect link followed the way a browser does, one hop at a time (redirects not followed, so each
 * hop is seen): cookies kept per host, the sandbox's consent form posted as a person would press
 * Allow or Deny, and the picker answered when it is shown.
 */
export interface Hop {
  method: string;
  url: string;
  status: number;
  location?: string;
  body: string;
}

/** A seeded sandbox person, optionally tagged (`ben+t1`) to be a distinct upstream identity with the same accounts. */
export type Person = 'ana' | 'ben' | 'cam' | `${'ana' | 'ben' | 'cam'}+${string}`;

export class BrowserSession {
  readonly hops: Hop[] = [];
  private readonly jar = new Map<string, Map<string, string>>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Hop> {
    const target = new URL(url);
    const cookies = this.jar.get(target.host);
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookies?.size ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const separator = (pair as string).indexOf('=');
      const hostCookies = this.jar.get(target.host) ?? new Map<string, string>();
      hostCookies.set((pair as string).slice(0, separator), (pair as string).slice(separator + 1));
      this.jar.set(target.host, hostCookies);
    }
    const location = response.headers.get('location') ?? undefined;
    const hop = {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      url,
      status: response.status,
      ...(location ? { location: new URL(location, url).href } : {}),
      body: await response.text(),
    };
    this.hops.push(hop);
    return hop;
  }

  /** Answers the sandbox consent screen the hop points at: signs in as `person` and allows or denies. */
  async consent(consentUrl: string, person: Person, decision: 'allow' | 'deny' = 'allow'): Promise<Hop> {
    const url = new URL(consentUrl);
    const page = await this.request(consentUrl);
    if (page.status !== 200) return page;
    return this.request(`${url.origin}${url.pathname}`, { form: { ...Object.fromEntries(url.searchParams), person, decision } });
  }
}

export type Platform = 'social' | 'searchads' | 'professional';

/** A link of the shared test stack, or of the stack at `baseUrl` (a child process). */
export async function createLink(
  apiKey: string,
  body: { userId: string; platform: Platform; redirectUri: string; state?: string },
  baseUrl?: string,
): Promise<string> {
  if (baseUrl === undefined) {
    const created = await call('/auth/create_link', body, { apiKey });
    if (created.status !== 200) throw new Error(`create_link failed: ${created.text}`);
    return created.body.results.link as string;
  }
  const response = await fetch(`${baseUrl}/auth/create_link`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`create_link failed: ${text}`);
  return (JSON.parse(text) as { results: { link: string } }).results.link;
}

export interface Connected {
  browser: BrowserSession;
  /** where the person ended up: the tenant's redirect URI with the outcome */
  outcome: URL;
  consentUrl: URL;
  /** the callback URL the platform sent the person to (with code and state) */
  callbackUrl: URL;
}

/**
 * One whole connection: link → consent (as `person`) → callback → (picker, choosing `choose`) → back.
 * Each hop's status is checked as it goes; `outcome` is the final redirect.
 */
export async function connectThroughLink(options: {
  apiKey: string;
  userId: string;
  platform: Platform;
  redirectUri: string;
  person: Person;
  decision?: 'allow' | 'deny';
  state?: string;
  choose?: { accountId: string; pageId?: string };
  browser?: BrowserSession;
  /** a stack other than the shared one */
  baseUrl?: string;
}): Promise<Connected> {
  const browser = options.browser ?? new BrowserSession();
  const link = await createLink(
    options.apiKey,
    { userId: options.userId, platform: options.platform, redirectUri: options.redirectUri, ...(options.state !== undefined ? { state: options.state } : {}) },
    options.baseUrl,
  );
  const start = await browser.request(link);
  if (start.status !== 302 || !start.location) throw new Error(`the link answered ${start.status}: ${start.body}`);
  const consented = await browser.consent(start.location, options.person, options.decision ?? 'allow');
  if (consented.status !== 302 || !consented.location) throw new Error(`the consent screen answered ${consented.status}: ${consented.body}`);
  let back = await browser.request(consented.location);
  if (back.location?.includes('/auth/select/')) {
    const picker = await browser.request(back.location);
    if (picker.status !== 200) throw new Error(`the picker answered ${picker.status}`);
    if (!options.choose) throw new Error('the picker was shown but the test chose nothing');
    back = await browser.request(back.location, {
      form: { accountId: options.choose.accountId, ...(options.choose.pageId ? { pageId: options.choose.pageId } : {}) },
    });
  }
  if (back.status !== 302 || !back.location) throw new Error(`the callback answered ${back.status}: ${back.body}`);
  return { browser, outcome: new URL(back.location), consentUrl: new URL(start.location), callbackUrl: new URL(consented.location) };
}
