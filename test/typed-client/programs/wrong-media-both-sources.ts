import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: a media upload with both an uploadId and a url
export const both = api.POST('/social/upload_ad_media', { body: { userId: 'u1', uploadId: 'upl_1', url: 'https://www.example.com/a.png' } });
