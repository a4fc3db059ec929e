import { defineOperation } from '../shared/http/operation.ts';
import { listPhotoPageMedia, photoAccountId } from '../shared/platforms/social/photo-page-media.ts';
import { socialSession } from '../shared/platforms/social/session.ts';
import { getPhotoPageMediaRequest } from '../shared/schemas/social.ts';

export const handler = defineOperation({
  name: 'get_photo_page_media',
  request: getPhotoPageMediaRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    const accountId = await photoAccountId(session, user, session.connection);
    return listPhotoPageMedia(session, accountId, input.pagination);
  },
});
