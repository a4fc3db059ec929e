import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });
const ad = { name: 'Ad 1', primaryText: 'Warm up.', headline: 'Tune-ups', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' } as const;
const launch = { userId: 'u1', name: 'Winter', objective: 'TRAFFIC', dailyBudget: '50', targeting: { locations: [{ key: 'US', type: 'country' }] } } as const;

// wrong: an ad with both an image and a video
export const both = api.POST('/social/create_campaign', {
  body: { ...launch, ads: [{ ...ad, imageId: '53599e92b82cb16dc38bd65259fff0ea', videoId: '1209876543210001' }] },
});
