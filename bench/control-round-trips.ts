import type { LocalStack } from '../local/stack.ts';

/**
 * The upstream calls of one applied campaign change on each platform, counted from the sandboxes'
 * recordings: reads (GETs, GAQL searches) and writes; token requests left out. The account's currency
 * and the billable unit are read once per process, so the figure is of a change after the first.
 */
interface Recorded {
  method: string;
  path: string;
}

async function recorded(url: string, from: number): Promise<Recorded[]> {
  return (await (await fetch(`${url}/__sandbox/requests?from=${from}`)).json()) as Recorded[];
}

async function count(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__sandbox/requests?count=1`)).json()) as { count: number }).count;
}

export async function controlRoundTrips(stack: LocalStack): Promise<Array<{ name: string; reads: number; writes: number }>> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'demo-user', ...(body as object) }),
    });
    const answer = (await response.json()) as { results: { changed?: boolean } };
    if (answer.results.changed !== true) throw new Error(`${path} changed nothing: ${JSON.stringify(answer)}`);
  };
  const changes: Array<[string, 'social' | 'searchads' | 'professional', string, unknown, unknown]> = [
    [
      'social pause, then a budget change',
      'social',
      '/social/',
      { campaignId: '120210987000000100', status: 'PAUSED' },
      { campaignId: '120210987000000100', editLevel: 'BUDGET', amount: '41' },
    ],
    [
      'searchads pause, then a budget change',
      'searchads',
      '/searchads/',
      { campaignId: '21234567890', status: 'PAUSED' },
      { campaignId: '21234567890', editLevel: 'BUDGET', amount: '41' },
    ],
    [
      'professional pause, then a budget change',
      'professional',
      '/professional/',
      { campaignId: '600000101', status: 'PAUSED' },
      { campaignId: '600000101', editLevel: 'BUDGET', amount: '41' },
    ],
  ];
  const figures: Array<{ name: string; reads: number; writes: number }> = [];
  for (const [name, platform, prefix, first, second] of changes) {
    const url = stack.sandboxes[platform]?.url as string;
    await post(`${prefix}update_campaign_status`, first);
    const from = await count(url);
    await post(`${prefix}edit_campaign`, second);
    const calls = (await recorded(url, from)).filter((call) => !/\/token$|accessToken$/.test(call.path));
    const reads = calls.filter((call) => call.method === 'GET' || call.path.endsWith('googleAds:search')).length;
    figures.push({ name: `${name} (the budget change)`, reads, writes: calls.length - reads });
  }
  return figures;
}
