import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: a media upload with neither an uploadId nor a url
export const neither = api.POST('/professional/upload_ad_media', { body: { userId: 'u1', name: 'Hero' } });
