import { createHash, randomBytes } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxRequest, SandboxResponse, SandboxRoute } from './server.ts';

/**
 * What the three sandboxes' consent screens share (docs/platforms.md "What every connect round trip shares"): the seeded people a
 * tester signs in as, a small HTML page with Allow and Deny, and one-time authorization codes bound
 * to the client, the exact redirect URI, the person, the scopes and the PKCE challenge, spent
 * atomically. Each platform adds its own parameters, refusals and redirects.
 */
export type PersonId = 'ana' | 'ben' | 'cam';
export const SANDBOX_PEOPLE: Array<{ id: PersonId; label: string }> = [
  { id: 'ana', label: 'Ana: one ad account' },
  { id: 'ben', label: 'Ben: several ad accounts' },
  { id: 'cam', label: 'Cam: no ad account' },
];
/** a token the sandbox did not issue (the demo user's, a test's) belongs to Ana */
export const DEFAULT_PERSON: PersonId = 'ana';

/**
 * Who signed in: a seeded person, optionally tagged (`ben+t1`): the same accounts under a distinct
 * upstream identity, so tests that share the sandbox do not share grants.
 */
export type Signer = string;
const SIGNER = /^(ana|ben|cam)(?:\+([A-Za-z0-9]{1,24}))?$/;
export const personOf = (signer: Signer | undefined): PersonId => (SIGNER.exec(signer ?? '')?.[1] as PersonId | undefined) ?? DEFAULT_PERSON;
/** what a tagged signer adds to the seeded person's upstream id */
export const identitySuffix = (signer: Signer | undefined): string => {
  const tag = SIGNER.exec(signer ?? '')?.[2];
  return tag ? `-${tag}` : '';
};

export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  person: Signer;
  scopes: string[];
  challenge?: string;
  challengeMethod?: string;
  validUntil: number;
  used: boolean;
}

export type Redemption = { code: IssuedCode } | { refused: 'unknown' | 'used' | 'expired' | 'redirect_mismatch' };

export class ConsentDesk {
  /** our app's registered redirect URIs (the local stack sets its callbacks here) */
  readonly redirectUris: string[] = [];
  private readonly codes = new Map<string, IssuedCode>();

  private readonly codeLifetimeMs: number;

  constructor(codeLifetimeMs: number) {
    this.codeLifetimeMs = codeLifetimeMs;
  }

  isRegistered(redirectUri: string, ignoreQuery = false): boolean {
    const compared = ignoreQuery ? redirectUri.replace(/\?.*$/, '') : redirectUri;
    return this.redirectUris.includes(compared);
  }

  issue(grant: Omit<IssuedCode, 'validUntil' | 'used'>, prefix: string): string {
    const code = `${prefix}${randomBytes(24).toString('base64url')}`;
    this.codes.set(code, { ...grant, validUntil: clock.now() + this.codeLifetimeMs, used: false });
    return code;
  }

  /** Spends a code for this client and redirect URI; a code is good once. */
  redeem(code: string | undefined, clientId: string, redirectUri: string | undefined): Redemption {
    const issued = code ? this.codes.get(code) : undefined;
    if (!issued || issued.clientId !== clientId) return { refused: 'unknown' };
    if (issued.used) return { refused: 'used' };
    if (issued.validUntil < clock.now()) return { refused: 'expired' };
    if (issued.redirectUri !== redirectUri) return { refused: 'redirect_mismatch' };
    issued.used = true;
    return { code: issued };
  }
}

/** RFC 7636: whether the verifier answers the challenge (S256, or plain). */
export function verifierMatches(code: IssuedCode, verifier: string): boolean {
  if (code.challengeMethod === 'plain') return verifier === code.challenge;
  return createHash('sha256').update(verifier, 'ascii').digest('base64url') === code.challenge;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function htmlPage(status: number, title: string, body: string): SandboxResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    raw: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  };
}

export const errorPage = (status: number, title: string, message: string) => htmlPage(status, title, `<p>${escapeHtml(message)}</p>`);

/**
 * The consent screen: the request's parameters ride along as hidden fields; the person picks who
 * they are and presses Allow or Deny, which posts back to the same path.
 */
export function consentPage(request: SandboxRequest, title: string, appName: string): SandboxResponse {
  const hidden = [...request.query].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  const people = SANDBOX_PEOPLE.map(
    (person, index) =>
      `<li><label><input type="radio" name="person" value="${person.id}"${index === 0 ? ' checked' : ''}> ${escapeHtml(person.label)}</label></li>`,
  ).join('');
  return htmlPage(
    200,
    title,
    `<p>${escapeHtml(appName)} asks for access to your ad accounts.</p>
<form method="post" action="${escapeHtml(request.path)}">${hidden}
<fieldset><legend>Sign in as</legend><ul>${people}</ul></fieldset>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** The consent form's answer: the original parameters, who signed in and what they decided. */
export function consentDecision(request: SandboxRequest): { params: Record<string, string>; person: Signer; allowed: boolean } {
  const { person, decision, ...params } = request.fields as Record<string, string>;
  return { params, person: SIGNER.test(person ?? '') ? (person as string) : DEFAULT_PERSON, allowed: decision === 'allow' };
}

/**
 * The consent form's answer checked like the consent screen: our app, a registered redirect URI.
 * What the platform redirects back with is the caller's; `back` holds the state to hand back.
 */
export function readConsent(
  request: SandboxRequest,
  desk: ConsentDesk,
  clientId: string,
  refusal: SandboxResponse,
  ignoreQuery = false,
): { params: Record<string, string>; person: Signer; allowed: boolean; redirectUri: string; back: Record<string, string> } | SandboxResponse {
  const { params, person, allowed } = consentDecision(request);
  if (params.client_id !== clientId || !desk.isRegistered(params.redirect_uri ?? '', ignoreQuery)) return refusal;
  return { params, person, allowed, redirectUri: params.redirect_uri as string, back: params.state !== undefined ? { state: params.state } : {} };
}

/** A redirect to the client with parameters appended (and a fragment, as Facebook adds one). */
export function redirectBack(redirectUri: string, params: Record<string, string>, fragment = ''): SandboxResponse {
  const query = new URLSearchParams(params).toString();
  return { status: 302, headers: { location: `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query}${fragment}` }, raw: '' };
}

/**
 * `GET /__sandbox/tokens?person=ben+t1`, for the tests: the tokens issued to one signer, from the
 * sandbox's token-to-signer maps, so a test counts only the requests its own grants made while other
 * files' requests arrive beside them.
 */
export function signerTokensRoute(...issued: Array<() => Iterable<[string, Signer]>>): SandboxRoute {
  return {
    method: 'GET',
    path: /^\/__sandbox\/tokens$/,
    handle: (request) => {
      const person = request.query.get('person');
      const tokens = issued.flatMap((tokensOf) => [...tokensOf()].filter(([, signer]) => signer === person).map(([token]) => token));
      return { status: 200, body: { tokens } };
    },
  };
}
