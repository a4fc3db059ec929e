import { BlockList, isIP } from 'node:net';

/** Which addresses a URL given by a client may reach: the public internet, plus networks configuration names. */
/** Loopback, private, shared, link-local (cloud metadata), documentation, benchmarking and multicast ranges. */
const NOT_PUBLIC_CIDRS = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
  '::/127',
  '64:ff9b::/96',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];
// built on first use: a module with no top-level work is dropped from bundles that never check an address
let notPublic: BlockList | undefined;

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // an IPv4-mapped address is judged as the IPv4 address it carries (BlockList itself would match
    // a ::ffff:0:0/96 rule against every IPv4 address, so there is no such rule)
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1] as string);
    if (/^::ffff:/i.test(address)) return false;
  }
  notPublic ??= parseNetworks(NOT_PUBLIC_CIDRS);
  return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Networks reached on purpose besides the public internet (`OUTBOUND_ALLOWED_NETWORKS`, CIDRs such as
 * `127.0.0.0/8,::1/128`): none in the cloud; the local stack's sandboxes and receivers on loopback.
 */
export function parseNetworks(cidrs: readonly string[]): BlockList {
  const networks = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefix = ''] = cidr.split('/');
    const family = isIP(address);
    if (family === 0 || !/^\d+$/.test(prefix)) throw new Error(`not a CIDR: ${cidr}`);
    networks.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }
  return networks;
}

/** Whether a connection to `address` is allowed: public, or inside one of `allowed`. */
export function isAllowedAddress(address: string, allowed?: BlockList): boolean {
  if (isPublicAddress(address)) return true;
  const family = isIP(address);
  return Boolean(allowed && family !== 0 && allowed.check(address, family === 4 ? 'ipv4' : 'ipv6'));
}
