import * as z from 'zod';
import { historyEntrySchema } from '../../shared/schemas/optimization.ts';
import { recordOptimizationRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Record a campaign optimization',
  description: 'Appends one history entry to a campaign’s optimization record (the first call creates it). The service stamps `lastUpdate`.',
  tag: 'Optimization',
  request: recordOptimizationRequest,
  result: z.object({ campaignId: z.string(), entry: historyEntrySchema }),
  requestExample: {
    userId: 'demo-user',
    campaignId: '120210000000001',
    campaignName: 'Autumn sale',
    platform: 'social',
    optimizationStatus: 'ACTIVE',
    startDate: 1760000000000,
    entry: { adId: '1', adSetId: '2', headlines: [], primaryTexts: [], images: [], timestamp: 1760000100000 },
  },
  resultExample: {
    campaignId: '120210000000001',
    entry: {
      adId: '1',
      adSetId: '2',
      headlines: [],
      primaryTexts: [],
      images: [],
      timestamp: 1760000100000,
      lastUpdate: { _seconds: 1760000200, _nanoseconds: 0 },
    },
  },
};
