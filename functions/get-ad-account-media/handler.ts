import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { listAdImages, listAdVideos } from '../../shared/platforms/social/ad-account-media.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { getAdAccountMediaRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  request: getAdAccountMediaRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    const list = input.type === 'IMAGE' ? listAdImages : listAdVideos;
    return list(session, session.connection.adAccountId, input.pagination);
  },
});
