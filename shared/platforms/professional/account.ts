import { clock } from '../../core/clock.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';

const CURRENCY_TTL_MS = 60 * 60 * 1000;
const currencies = new Map<string, { currency: string; until: number }>();

/** The ad account's currency (what costInLocalCurrency is in), kept an hour per container. */
export async function accountCurrency(session: ProfessionalSession, accountId: string): Promise<string> {
  const cached = currencies.get(accountId);
  if (cached && cached.until > clock.now()) return cached.currency;
  const { body } = await restliRequest(session, 'GET', `/adAccounts/${accountId}`);
  const currency = String((body as { currency?: string } | null)?.currency ?? 'USD');
  currencies.set(accountId, { currency, until: clock.now() + CURRENCY_TTL_MS });
  return currency;
}
