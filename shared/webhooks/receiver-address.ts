import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { config } from '../core/config.ts';
import { InvalidRequest } from '../core/errors.ts';
import { isAllowedAddress, isPublicAddress } from '../core/addresses.ts';

/**
 * Whether a webhook URL may be called: every address its host resolves to must be public, or inside
 * a network configuration allows (the local stack's loopback), where plain http: is then accepted
 * too. Checked when the URL is set; each delivery checks again at connect time.
 */
export async function checkWebhookUrl(address: string): Promise<void> {
  const url = new URL(address);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw refused('its host name does not resolve');
  }
  const allowed = config().OUTBOUND_ALLOWED_NETWORKS.networks;
  if (addresses.length === 0 || !addresses.every((entry) => isAllowedAddress(entry, allowed))) {
    throw refused('it must resolve to public internet addresses only');
  }
  if (url.protocol !== 'https:' && addresses.some((entry) => isPublicAddress(entry))) throw refused('it must use https:');
}

const refused = (why: string) => new InvalidRequest(`The webhook URL cannot be used: ${why}.`, [{ path: 'webhook.url', message: why }]);
