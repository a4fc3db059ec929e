import { clock } from '../../core/clock.ts';
import { graphRequest, type SocialSession } from './client.ts';

/** An ad account's currency, kept an hour per container (it does not change under a live account). */
const CURRENCY_TTL_MS = 60 * 60 * 1000;
const currencies = new Map<string, { currency: string; until: number }>();

export async function accountCurrency(session: SocialSession, account: string): Promise<string> {
  const cached = currencies.get(account);
  if (cached && cached.until > clock.now()) return cached.currency;
  const { body } = await graphRequest<{ currency?: string }>(session, 'GET', `act_${account}`, { fields: 'currency,timezone_name' });
  const currency = String(body.currency ?? 'USD');
  currencies.set(account, { currency, until: clock.now() + CURRENCY_TTL_MS });
  return currency;
}
