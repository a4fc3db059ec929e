import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { declaration } from './declaration.ts';
import { listPhotoPageMedia, photoAccountId } from '../../shared/platforms/social/photo-page-media.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { getPhotoPageMediaRequest } from './schema.ts';
import { rememberConnectionField } from '../../shared/store/user-writes.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: getPhotoPageMediaRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    const account = await photoAccountId(session, session.connection);
    if (account.discovered) await rememberConnectionField(user, 'social', 'photoAccountId', account.id);
    return listPhotoPageMedia(session, account.id, input.pagination);
  },
});
