import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

/**
 * What a client writes with types generated from the served document: an image into the ad account, a
 * whole campaign launched with it, followed to its end, then turned on and found in the list. No cast.
 */
const api = createClient<paths>({ baseUrl: 'http://localhost:3000', headers: { 'x-api-key': 'local-demo-key-do-not-use-in-production' } });

export async function launchAndRun(userId: string, image: Blob): Promise<string> {
  const ticket = await api.POST('/uploads/create_upload', {
    body: { userId, fileName: 'hero.png', contentLength: image.size, purpose: 'image', contentType: 'image/png' },
  });
  if (!ticket.data) throw new Error(ticket.error?.results.error ?? 'no upload');
  const { url, headers, uploadId } = ticket.data.results;
  await fetch(url, { method: 'PUT', headers, body: image });

  const sent = await api.POST('/social/upload_ad_media', { body: { userId, uploadId, name: 'Hero' } });
  const answer = sent.data?.results;
  if (!answer?.success || !('media' in answer)) throw new Error('the image did not arrive');
  const imageId = answer.media.id;

  const launched = await api.POST('/social/create_campaign', {
    body: {
      userId,
      name: 'Winter Tune-Up',
      objective: 'TRAFFIC',
      dailyBudget: '50',
      targeting: { locations: [{ key: 'US', type: 'country' }] },
      ads: [{ name: 'Ad 1', imageId, primaryText: 'Warm up.', headline: 'Tune-ups from $89', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' }],
    },
  });
  const started = launched.data?.results;
  if (!started?.success) throw new Error(started?.error ?? launched.error?.results.error ?? 'not started');
  if (!('jobId' in started)) throw new Error('a dry run answered');

  for (;;) {
    const read = await api.POST('/jobs/get_job', { body: { jobId: started.jobId } });
    const job = read.data?.results.job;
    if (!job) throw new Error('no job');
    if (job.type !== 'campaign_launch') throw new Error(`a ${job.type} job`);
    if (job.status === 'failed') throw new Error(`${job.error?.code}: ${job.error?.message}; left: ${JSON.stringify(job.orphans ?? [])}`);
    if (job.status === 'succeeded' && job.result) {
      const { campaignId, adSetId, ads } = job.result;
      console.log(`campaign ${campaignId}, ad set ${adSetId ?? '-'}, ${ads.length} ad(s)`);
      const on = await api.POST('/social/update_campaign_status', { body: { userId, campaignId, status: 'ACTIVE' } });
      const turned = on.data?.results;
      if (!turned?.success) throw new Error(turned?.error ?? 'not turned on');
      const listed = (await api.POST('/social/get_campaigns_list', { body: { userId } })).data?.results;
      if (!listed?.success) throw new Error(listed?.error ?? 'no list');
      const campaign = listed.campaigns.find((candidate) => candidate.id === campaignId);
      if (campaign?.status === 'ACTIVE') return campaignId;
      throw new Error(`the campaign is ${campaign?.status ?? 'missing'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
