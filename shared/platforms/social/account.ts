import { clock } from '../../core/clock.ts';
import type { AccountFacts } from '../campaign-metrics.ts';
import { graphRequest, type SocialSession } from './client.ts';

/** An ad account's currency and time zone, kept an hour per container (they do not change under a live account). */
const FACTS_TTL_MS = 60 * 60 * 1000;
const known = new Map<string, { facts: AccountFacts; until: number }>();

export async function accountFacts(session: SocialSession, account: string): Promise<AccountFacts> {
  const cached = known.get(account);
  if (cached && cached.until > clock.now()) return cached.facts;
  const { body } = await graphRequest<{ currency?: string; timezone_name?: string }>(session, 'GET', `act_${account}`, { fields: 'currency,timezone_name' });
  const facts = { currency: String(body.currency ?? 'USD'), timeZone: String(body.timezone_name ?? 'UTC') };
  known.set(account, { facts, until: clock.now() + FACTS_TTL_MS });
  return facts;
}

export const accountCurrency = async (session: SocialSession, account: string): Promise<string> => (await accountFacts(session, account)).currency;
