import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { destinationsOf } from '../use-cases/conversions/destinations.ts';
import { declaration } from './declaration.ts';
import { listDestinationsRequest } from './schema.ts';

/** POST /conversions/list_destinations (docs/conversions.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: listDestinationsRequest,
  run: async ({ input, user, context }) => ({
    platform: input.platform,
    destinations: (await destinationsOf(user, input.platform, context)).map(({ destinationId, name, kind }) => ({ destinationId, name, kind })),
  }),
});
