import { clock } from '../../../shared/core/clock.ts';
import { randomValue } from '../../../shared/connect/one-time-values.ts';
import { InvalidRequest, type Platform } from '../../../shared/core/errors.ts';
import { saveLink } from '../../../shared/store/connect-link-writes.ts';
import { loadTenantSettings } from '../../../shared/store/tenant-settings.ts';
import type { User } from '../../../shared/store/users.ts';
import { publicBase } from './connect-outcome.ts';

/**
 * A connect link (docs/decisions.md "Connect links"): valid 24 h, it completes once, and sends the
 * person back only to one of the tenant's registered redirect URIs. Making one calls no platform, so
 * this module holds none of the round trip (connect-link.ts) and create_link bundles no platform's code.
 */
const LINK_VALID_MS = 24 * 3_600_000;

export async function createConnectLink(
  user: User,
  input: { platform: Platform; redirectUri: string; state?: string },
): Promise<{ link: string; expiresAt: number }> {
  const { redirectUris } = await loadTenantSettings(user.tenantId);
  if (!redirectUris.includes(input.redirectUri)) {
    throw new InvalidRequest('redirectUri is not one of this tenant’s redirectUris; register it with /tenant/update_settings first.', [
      { path: 'redirectUri', message: 'must be exactly one of the tenant’s redirectUris' },
    ]);
  }
  const linkId = randomValue(18);
  const validUntil = clock.now() + LINK_VALID_MS;
  await saveLink({
    linkId,
    tenantId: user.tenantId,
    userId: user.userId,
    platform: input.platform,
    redirectUri: input.redirectUri,
    ...(input.state !== undefined ? { clientState: input.state } : {}),
    createdAt: clock.date().toISOString(),
    validUntil,
  });
  return { link: `${publicBase()}/auth/connect/${linkId}`, expiresAt: validUntil };
}
