import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: an image upload declared as a CSV
export const csv = api.POST('/uploads/create_upload', {
  body: { userId: 'u1', fileName: 'hero.png', contentLength: 100, purpose: 'image', contentType: 'text/csv' },
});
