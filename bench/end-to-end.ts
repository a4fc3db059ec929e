import autocannon from 'autocannon';

/**
 * End to end through the local gateway against the sandboxes: get_campaigns_list under autocannon
 * (50 connections, 20 s), and the upstream round trips of the creating operations, as the sandboxes
 * count them.
 */
export async function loadTest(
  url: string,
  apiKey: string,
): Promise<{ requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; non2xx: number; total: number }> {
  const result = await autocannon({
    url: `${url}/social/get_campaigns_list`,
    method: 'POST',
    connections: 50,
    duration: 20,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ userId: 'demo-user' }),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

async function post(url: string, path: string, apiKey: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { results: Record<string, unknown> };
}

async function upstreamCount(sandbox: string, reset = false): Promise<Array<{ method: string; path: string }>> {
  const requests = (await (await fetch(`${sandbox}/__sandbox/requests`)).json()) as Array<{ method: string; path: string }>;
  if (reset) await fetch(`${sandbox}/__sandbox/requests`, { method: 'DELETE' });
  return requests;
}

export async function roundTrips(url: string, apiKey: string, sandboxes: { searchads: string; social: string }) {
  const refreshToken = `1//bench-${Date.now()}`;
  const user = await post(url, '/users/create_user', apiKey, {
    connections: {
      searchads: { refreshToken, customerId: '5550001111' },
      social: { accessToken: `EAAbench${Date.now()}`, adAccountId: '284756109384756', pageId: '104857392018465' },
    },
  });
  const userId = user.results.userId as string;
  const campaign = (name: string) => ({
    userId,
    objective: 'TRAFFIC',
    campaignName: name,
    dailyBudget: '25',
    startDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    keywords: [{ text: 'bench keyword', match_type: 'BROAD' }],
    locations: ['2840'],
    ads: [
      { url: 'https://www.example.com', headlines: ['Bench one', 'Bench two', 'Bench three'], descriptions: ['First description.', 'Second description.'] },
    ],
    callouts: ['Bench callout'],
  });
  await upstreamCount(sandboxes.searchads, true);
  await post(url, '/searchads/create_search_campaign', apiKey, campaign(`Bench cold ${Date.now()}`));
  const cold = await upstreamCount(sandboxes.searchads, true);
  await post(url, '/searchads/create_search_campaign', apiKey, campaign(`Bench warm ${Date.now()}`));
  const warm = await upstreamCount(sandboxes.searchads, true);

  await upstreamCount(sandboxes.social, true);
  const lines = ['email'];
  for (let index = 0; index < 25_000; index++) lines.push(`bench${index}@example.com`);
  const form = new FormData();
  form.append('userId', userId);
  form.append('audienceName', 'Bench audience');
  form.append('csvFile', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'bench.csv');
  await fetch(`${url}/social/create_social_csv_audience`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  const audience = await upstreamCount(sandboxes.social, true);
  const count = (requests: Array<{ path: string }>, pattern: RegExp) => requests.filter((request) => pattern.test(request.path)).length;
  return {
    createCampaignCold: { token: count(cold, /^\/token$/), mutate: count(cold, /googleAds:mutate$/), total: cold.length },
    createCampaignWarm: { token: count(warm, /^\/token$/), mutate: count(warm, /googleAds:mutate$/), total: warm.length },
    audience25k: { create: count(audience, /customaudiences$/), uploads: count(audience, /\/users$/), total: audience.length },
  };
}
