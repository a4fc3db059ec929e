import * as z from 'zod';
import { pagingSchema, photoPageMediaSchema } from '../../shared/schemas/social.ts';
import { getPhotoPageMediaRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get photo-page media (operation 4)',
  description: 'The posts of the user’s photo-sharing page, a page at a time.',
  tag: 'Social',
  request: getPhotoPageMediaRequest,
  result: z.object({ media: z.array(photoPageMediaSchema), paging: pagingSchema }),
  requestExample: { userId: 'demo-user' },
  resultExample: {
    media: [
      {
        id: '17988000000000301',
        caption: 'New autumn collection',
        media_type: 'IMAGE',
        media_url: 'https://scontent.cdninstagram.com/v/p.jpg',
        permalink: 'https://www.instagram.com/p/DFakeShrt01/',
        timestamp: `${day(-40)}T17:22:05+0000`,
        ig_id: '3468821947712345678',
        boost_eligibility_info: { eligible_to_boost: true },
        media_product_type: 'FEED',
      },
    ],
    paging: {},
  },
};
