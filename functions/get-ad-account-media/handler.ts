import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { declaration } from './declaration.ts';
import { listAdImages, listAdVideos } from '../../shared/platforms/social/ad-account-media.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { getAdAccountMediaRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: getAdAccountMediaRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    const list = input.type === 'IMAGE' ? listAdImages : listAdVideos;
    return list(session, session.connection.adAccountId, input.pagination);
  },
});
