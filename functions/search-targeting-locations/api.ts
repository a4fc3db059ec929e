import * as z from 'zod';
import { targetingLocationSchema } from '../../shared/schemas/social.ts';
import { searchTargetingLocationsRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Search targeting locations (operation 5)',
  description: 'City-level targeting locations whose names start with the query.',
  tag: 'Social',
  request: searchTargetingLocationsRequest,
  result: z.object({ locations: z.array(targetingLocationSchema) }),
  requestExample: { userId: 'demo-user', query: 'dub' },
  resultExample: {
    locations: [
      {
        key: '1051234',
        name: 'Dublin',
        region: 'Dublin',
        country_name: 'Ireland',
        type: 'city',
        country_code: 'IE',
        region_id: 1405,
        supports_region: true,
        supports_city: true,
      },
    ],
  },
};
