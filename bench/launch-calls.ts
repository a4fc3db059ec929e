import { createHash } from 'node:crypto';

/**
 * The upstream calls of a social launch with N ads (issue "Launch a whole social campaign"): the goal is
 * 1 account read + 1 campaign + 1 ad set + N creatives + N ads and nothing more; we also read the ads'
 * images once (their URL and size for the history, and a 400 for an image the account lacks). Counted
 * from the sandbox's own record of what it received, against `npm start`'s stack in its own process.
 */
type Row = [string, string, string];
const DEMO_ACCOUNT = '284756109384756';
const imageOf = (index: number) => createHash('md5').update(`${DEMO_ACCOUNT}:image:${index}`).digest('hex');

export async function launchCalls(url: string, socialSandbox: string, apiKey: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const count of [1, 5, 10]) {
    const name = `Bench launch ${count} ${Date.now()}`;
    const from = ((await (await fetch(`${socialSandbox}/__sandbox/requests?count=1`)).json()) as { count: number }).count;
    const call = async (path: string, body: unknown) =>
      (await (
        await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).json()) as { results: Record<string, any> };
    const started = await call('/social/create_campaign', {
      userId: 'demo-user',
      name,
      objective: 'TRAFFIC',
      dailyBudget: '50',
      targeting: { locations: [{ key: 'US', type: 'country' }] },
      ads: Array.from({ length: count }, (_, index) => ({
        name: `${name} · ${index + 1}`,
        imageId: imageOf(index),
        primaryText: 'Warm up your winter.',
        headline: 'Tune-ups from $89',
        link: 'https://www.example.com/winter',
        callToAction: 'LEARN_MORE',
      })),
    });
    const jobId = started.results.jobId as string;
    let status = 'queued';
    const began = performance.now();
    while (status !== 'succeeded' && status !== 'failed' && performance.now() - began < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await call('/jobs/get_job', { jobId })).results.job.status;
    }
    const requests = ((await (await fetch(`${socialSandbox}/__sandbox/requests?from=${from}`)).json()) as Array<{ method: string; path: string }>).map(
      (request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '').replace(/\d{6,}/g, '{id}')}`,
    );
    const tally = new Map<string, number>();
    for (const request of requests) tally.set(request, (tally.get(request) ?? 0) + 1);
    const goal = 1 + 1 + 1 + 2 * count;
    const made = requests.filter((request) => request.startsWith('POST')).length + requests.filter((request) => request === 'GET act_{id}').length;
    rows.push([
      `launch calls: ${count} ad${count > 1 ? 's' : ''} (${status})`,
      `${requests.length} calls`,
      `${[...tally].map(([request, times]) => `${times}× ${request}`).join(', ')}; goal ${goal} (account read + creates): ${made === goal ? 'met' : `MISSED (${made})`}, plus 1 image read`,
    ]);
  }
  return rows;
}
