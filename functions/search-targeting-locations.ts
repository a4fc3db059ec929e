import { defineOperation } from '../shared/http/operation.ts';
import { socialSession } from '../shared/platforms/social/session.ts';
import { searchTargetingLocations } from '../shared/platforms/social/targeting-locations.ts';
import { searchTargetingLocationsRequest } from '../shared/schemas/social.ts';

export const handler = defineOperation({
  name: 'search_targeting_locations',
  request: searchTargetingLocationsRequest,
  run: async ({ input, user, context }) => ({
    locations: await searchTargetingLocations(socialSession(user, context), input.query),
  }),
});
