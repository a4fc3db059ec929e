import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { uploadSocialAdMedia } from '../use-cases/media/ad-media.ts';
import { declaration } from './declaration.ts';
import { uploadAdMediaRequest } from './schema.ts';

/** POST /social/upload_ad_media: an image or a video of the user's upload (an image also at a URL) into their ad account. */
export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: uploadAdMediaRequest,
  run: ({ input, tenantId, user, context, audit }) => uploadSocialAdMedia({ tenantId, user, input, context, audit }),
});
