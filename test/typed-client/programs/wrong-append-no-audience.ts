import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: an append to a Customer Match list that names no audience
export const append = api.POST('/searchads/create_csv_audience', {
  body: {
    userId: 'u1',
    mode: 'append',
    uploadId: 'upl_0123456789abcdef0123456789abcdef',
    consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
  },
});
