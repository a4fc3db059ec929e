import * as z from 'zod';
import { optimizationRecordSchema } from '../../shared/schemas/optimization.ts';
import { getOptimizationHistoryRequest } from './schema.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get campaign optimization history (operation 3)',
  description:
    'The log of changes made by audience and creative optimizations of a campaign, oldest first. One answer holds the newest entries up to 4 MB; `results.paging.next`, sent back as `pagination`, gives the older ones. 404 NOT_FOUND for a campaign never optimized.',
  tag: 'Optimization',
  request: getOptimizationHistoryRequest,
  result: z.object({ campaign: optimizationRecordSchema, paging: pagingSchema }),
  requestExample: { userId: 'demo-user', campaignId: '120210000000001' },
  resultExample: {
    campaign: {
      campaignId: '120210000000001',
      campaignName: 'Autumn sale',
      startDate: 1760000000000,
      timestamp: 1760000100000,
      optimizationStatus: 'ACTIVE',
      platform: 'social',
      history: [
        {
          adId: '1',
          adSetId: '2',
          headlines: [{ newText: 'Fresh bread daily', oldText: 'Bread' }],
          primaryTexts: [],
          images: [],
          timestamp: 1760000100000,
          lastUpdate: { _seconds: 1760000200, _nanoseconds: 0 },
        },
      ],
    },
    paging: {},
  },
};
