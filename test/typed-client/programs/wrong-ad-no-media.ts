import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });
const launch = { userId: 'u1', name: 'Winter', objective: 'TRAFFIC', dailyBudget: '50', targeting: { locations: [{ key: 'US', type: 'country' }] } } as const;

// wrong: an ad with neither an image nor a video
export const neither = api.POST('/professional/create_campaign', {
  body: {
    ...launch,
    objective: 'WEBSITE_VISITS',
    targeting: { locations: ['urn:li:geo:103644278'] },
    ads: [{ name: 'Ad 1', commentary: 'Hi', headline: 'Hi', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' }],
  },
});
