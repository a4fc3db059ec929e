import type { LocalStack } from '../local/stack.ts';
import { contactLine } from './audience-pipeline.ts';

/**
 * `npm run bench -- google`: a list of 1,000,000 contacts into a Customer Match list through the local
 * stack (an upload, then the job), against the search-ads sandbox's Data Manager API. The sandbox's
 * recordings give the upstream requests by kind; the goal is 100 member requests (10,000 members each).
 */
const ROWS = 1_000_000;

export async function googleAudienceBench(stack: LocalStack, apiKey: string): Promise<Array<[string, string, string]>> {
  const sandbox = stack.sandboxes.searchads?.url as string;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { results: Record<string, any> };
    if (answer.results.success !== true) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer.results;
  };
  const csv = Buffer.from(
    `email,phone,first_name,last_name,zip,country\n${Array.from({ length: ROWS }, (_, index) => `${contactLine(index).slice(0, -1)},US\n`).join('')}`,
  );
  const ticket = await post('/uploads/create_upload', { userId: 'demo-user', fileName: 'million.csv', contentLength: csv.length });
  const put = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: csv });
  if (put.status !== 200) throw new Error(`PUT ${put.status}`);
  const before = ((await (await fetch(`${sandbox}/__sandbox/requests?count=1`)).json()) as { count: number }).count;
  const started = performance.now();
  const { jobId } = await post('/searchads/create_csv_audience', {
    userId: 'demo-user',
    audienceName: 'Bench million',
    mode: 'create',
    consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
    uploadId: ticket.uploadId,
  });
  let job: Record<string, any>;
  for (;;) {
    job = (await post('/jobs/get_job', { jobId })).job;
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const seconds = (performance.now() - started) / 1000;
  if (job.status !== 'succeeded') throw new Error(`the job failed: ${JSON.stringify(job.error)}`);
  const made = ((await (await fetch(`${sandbox}/__sandbox/requests?from=${before}`)).json()) as Array<{ method: string; path: string }>).filter((request) =>
    request.path.startsWith('/v1/'),
  );
  const count = (test: (path: string) => boolean) => made.filter((request) => test(request.path)).length;
  const ingests = count((path) => path === '/v1/audienceMembers:ingest');
  return [
    [
      'audience, search ads: 1,000,000 rows through the job',
      `${seconds.toFixed(1)} s from the start to succeeded`,
      `received ${job.result.received}, invalid ${job.result.invalid}, ${job.result.matchRateRange}`,
    ],
    [
      'audience, search ads: upstream requests for 1,000,000 rows',
      `${ingests} ingest, ${count((path) => path.endsWith('/userLists'))} list create, ${count((path) => path.startsWith('/v1/requestStatus'))} status reads`,
      ingests === 100 ? 'goal 100 member requests met' : 'goal 100 member requests MISSED',
    ],
  ];
}
