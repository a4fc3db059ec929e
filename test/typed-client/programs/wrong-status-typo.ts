import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: a typo in a status the list answers
export async function running(userId: string): Promise<number> {
  const listed = (await api.POST('/social/get_campaigns_list', { body: { userId } })).data?.results;
  if (!listed?.success) return 0;
  return listed.campaigns.filter((campaign) => campaign.status === 'ACTVE').length;
}
