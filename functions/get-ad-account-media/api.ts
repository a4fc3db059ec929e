import * as z from 'zod';
import { imageMediaSchema, pagingSchema, videoMediaSchema } from '../../shared/schemas/social.ts';
import { getAdAccountMediaRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get ad-account media (operation 1)',
  description:
    'The images (type IMAGE) or videos (type VIDEO) of the user’s social ad account, a page at a time: send `results.paging.next` back as `pagination`.',
  tag: 'Social',
  request: getAdAccountMediaRequest,
  result: z.object({ media: z.array(z.union([imageMediaSchema, videoMediaSchema])), paging: pagingSchema }),
  requestExample: { userId: 'demo-user', type: 'IMAGE', pagination: '' },
  resultExample: {
    media: [{ id: '284756109384756:53c4f08234afb5224d6eb437d379363a', url: 'https://scontent.xx.fbcdn.net/v/t45.1600-4/image.jpg', width: 1200, height: 628 }],
    paging: { next: 'after:MjA=' },
  },
};
