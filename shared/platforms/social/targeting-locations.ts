import type { TargetingLocation } from '../../schemas/social.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { pickPresent } from './pick.ts';

/** docs/platforms.md, "Social": city-level targeting search (reclassified entries come back as subcity, neighborhood …). */
export const LOCATION_FIELDS = ['key', 'name', 'region', 'country_name', 'type', 'country_code', 'region_id', 'supports_region', 'supports_city'] as const;
const SEARCH_LIMIT = 25;

export async function searchTargetingLocations(session: SocialSession, query: string): Promise<TargetingLocation[]> {
  const { body } = await graphRequest<{ data?: Array<Record<string, unknown>> }>(session, 'GET', 'search', {
    type: 'adgeolocation',
    q: query,
    location_types: ['city'],
    limit: SEARCH_LIMIT,
  });
  return (body.data ?? []).map((location) => pickPresent(location, LOCATION_FIELDS) as TargetingLocation);
}
