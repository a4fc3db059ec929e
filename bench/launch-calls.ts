import { createHash } from 'node:crypto';

/**
 * The upstream calls of a whole-campaign launch with N ads, counted from the sandbox's own record of
 * what it received, against `npm start`'s stack in its own process. Goals (the launch issues): social,
 * 1 account read + 1 campaign + 1 ad set + N creatives + N ads; professional, 1 account read + 1 group +
 * 1 campaign + N creatives. Beside the goal, each request reads the ads' media once (social: their URL
 * and size for the history; professional: one read per distinct image or video, status and owner), so that media
 * the account lacks are a 400 before anything is made.
 */
type Row = [string, string, string];
const SOCIAL_ACCOUNT = '284756109384756';
const socialImage = (index: number) => createHash('md5').update(`${SOCIAL_ACCOUNT}:image:${index}`).digest('hex');
const PROFESSIONAL_IMAGES = ['urn:li:image:D4E10AQSandboxLibrary01', 'urn:li:image:D4E10AQSandboxLibrary02'];

interface Launch {
  platform: 'social' | 'professional';
  counts: number[];
  body: (name: string, count: number) => Record<string, unknown>;
  /** the account read and the creates */
  goal: (count: number) => number;
  isAccountRead: (request: string) => boolean;
  path: (path: string) => string;
}

const LAUNCHES: Launch[] = [
  {
    platform: 'social',
    counts: [1, 5, 10],
    body: (name, count) => ({
      userId: 'demo-user',
      name,
      objective: 'TRAFFIC',
      dailyBudget: '50',
      targeting: { locations: [{ key: 'US', type: 'country' }] },
      ads: Array.from({ length: count }, (_, index) => ({
        name: `${name} · ${index + 1}`,
        imageId: socialImage(index),
        primaryText: 'Warm up your winter.',
        headline: 'Tune-ups from $89',
        link: 'https://www.example.com/winter',
        callToAction: 'LEARN_MORE',
      })),
    }),
    goal: (count) => 3 + 2 * count,
    isAccountRead: (request) => request === 'GET act_{id}',
    path: (path) => path.replace(/^\/v\d+\.\d+\//, '').replace(/\d{6,}/g, '{id}'),
  },
  {
    platform: 'professional',
    counts: [1, 5, 15],
    body: (name, count) => ({
      userId: 'demo-user',
      name,
      objective: 'WEBSITE_VISITS',
      dailyBudget: '50.00',
      targeting: { locations: ['urn:li:geo:103644278'] },
      ads: Array.from({ length: count }, (_, index) => ({
        name: `${name} · ${index + 1}`,
        imageId: PROFESSIONAL_IMAGES[index % PROFESSIONAL_IMAGES.length],
        commentary: 'Join our live webinar.',
        headline: 'Save your seat',
        link: 'https://www.example.com/webinar',
        callToAction: 'REGISTER',
      })),
    }),
    goal: (count) => 3 + count,
    isAccountRead: (request) => request === 'GET /adAccounts/{id}',
    path: (path) => path.replace(/^\/rest/, '').replace(/\d{6,}/g, '{id}'),
  },
];

export async function launchCalls(url: string, sandboxes: { social: string; professional: string }, apiKey: string): Promise<Row[]> {
  const rows: Row[] = [];
  const call = async (path: string, body: unknown) =>
    (await (
      await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json()) as { results: Record<string, any> };
  for (const launch of LAUNCHES) {
    const sandbox = sandboxes[launch.platform];
    for (const count of launch.counts) {
      const name = `Bench launch ${count} ${Date.now()}`;
      const from = ((await (await fetch(`${sandbox}/__sandbox/requests?count=1`)).json()) as { count: number }).count;
      const started = await call(`/${launch.platform}/create_campaign`, launch.body(name, count));
      const jobId = started.results.jobId as string;
      let status = 'queued';
      const began = performance.now();
      while (status !== 'succeeded' && status !== 'failed' && performance.now() - began < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await call('/jobs/get_job', { jobId })).results.job.status;
      }
      const requests = ((await (await fetch(`${sandbox}/__sandbox/requests?from=${from}`)).json()) as Array<{ method: string; path: string }>).map(
        (request) => `${request.method} ${launch.path(request.path)}`,
      );
      const tally = new Map<string, number>();
      for (const request of requests) tally.set(request, (tally.get(request) ?? 0) + 1);
      const goal = launch.goal(count);
      const made = requests.filter((request) => request.startsWith('POST')).length + requests.filter(launch.isAccountRead).length;
      rows.push([
        `launch calls: ${launch.platform}, ${count} ad${count > 1 ? 's' : ''} (${status})`,
        `${requests.length} calls`,
        `${[...tally].map(([request, times]) => `${times}× ${request}`).join(', ')}; goal ${goal} (account read + creates): ${made === goal ? 'met' : `MISSED (${made})`}, plus ${requests.length - made} media read${requests.length - made === 1 ? '' : 's'}`,
      ]);
    }
  }
  return rows;
}
