import { call, stack } from './api.ts';
import { eventually } from './eventually.ts';

/** The direct-upload flow as a client runs it: create_upload, PUT the bytes, then the operation with the uploadId. */
export async function createUpload(
  apiKey: string,
  userId: string,
  contentLength: number,
  baseUrl = stack().url,
): Promise<{ uploadId: string; url: string; headers: Record<string, string> }> {
  const response = await fetch(`${baseUrl}/uploads/create_upload`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ userId, fileName: 'contacts.csv', contentLength }),
  });
  const body = (await response.json()) as { results: { uploadId: string; url: string; headers: Record<string, string> } };
  if (response.status !== 200) throw new Error(`create_upload failed: ${JSON.stringify(body)}`);
  return body.results;
}

export async function putFile(ticket: { url: string; headers: Record<string, string> }, content: string | Buffer): Promise<Response> {
  return fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: content });
}

/** A file of this user's, uploaded whole: its uploadId. */
export async function uploaded(apiKey: string, userId: string, content: string | Buffer, baseUrl?: string): Promise<string> {
  const ticket = await createUpload(apiKey, userId, Buffer.byteLength(content), baseUrl);
  const put = await putFile(ticket, content);
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return ticket.uploadId;
}

export interface JobView {
  jobId: string;
  type: string;
  userId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: { bytesRead: number; totalBytes: number; rowsRead: number; rowsSent: number; batchesSent: number };
  result?: any;
  error?: { code: string; message: string };
}

export async function getJob(apiKey: string, jobId: string, baseUrl?: string): Promise<{ status: number; body: any }> {
  if (!baseUrl) return call('/jobs/get_job', { jobId }, { apiKey });
  const response = await fetch(`${baseUrl}/jobs/get_job`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ jobId }),
  });
  return { status: response.status, body: await response.json() };
}

/** Follows a job until it ends, as a client polls get_job; every answer on the way is kept. */
export async function jobToEnd(
  apiKey: string,
  jobId: string,
  options: { baseUrl?: string; timeoutMs?: number } = {},
): Promise<{ job: JobView; seen: JobView[] }> {
  const seen: JobView[] = [];
  const job = await eventually(
    async () => {
      const { body } = await getJob(apiKey, jobId, options.baseUrl);
      const view = body.results.job as JobView;
      seen.push(view);
      return view.status === 'succeeded' || view.status === 'failed' ? view : undefined;
    },
    options.timeoutMs ?? 60_000,
    `job ${jobId} to end`,
  );
  return { job, seen };
}
