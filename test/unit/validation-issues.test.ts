import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { createUploadRequest } from '../../functions/create-upload/schema.ts';
import { problemsOf } from '../../shared/http/validation-issues.ts';
import { uploadAdMediaRequest } from '../../shared/schemas/ad-media.ts';
import { socialLaunchRequest } from '../../shared/schemas/social-launch.ts';

/** A body that fits none of a union's shapes is told what is wrong with the shape it comes closest to. */
const problems = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : problemsOf(parsed.error.issues, input);
};

const ad = { name: 'Ad 1', primaryText: 'Warm up.', headline: 'Tune-ups', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' };
const launch = (ads: unknown[]) => ({
  userId: 'u1',
  name: 'Winter',
  objective: 'TRAFFIC',
  dailyBudget: '50',
  targeting: { locations: [{ key: 'US', type: 'country' }] },
  ads,
});
const HASH = 'a'.repeat(32);

describe('problems of a union of shapes', () => {
  it('an ad with its image and a headline too long: the headline, where the image ad is', () => {
    expect(problems(socialLaunchRequest, launch([{ ...ad, imageId: HASH, headline: 'x'.repeat(300) }]))).toEqual([
      { path: 'ads.0.headline', message: expect.stringContaining('255') },
    ]);
  });

  it('an ad with both or neither of imageId and videoId: the ad itself, saying so', () => {
    for (const media of [{ imageId: HASH, videoId: '1209876543210001' }, {}])
      expect(problems(socialLaunchRequest, launch([{ ...ad, ...media }]))).toEqual([{ path: 'ads.0', message: 'send exactly one of imageId and videoId' }]);
  });

  it('exactly one of uploadId and url; a URL of another scheme is the url’s own problem', () => {
    expect(problems(uploadAdMediaRequest, { userId: 'u1' })).toEqual([{ path: '', message: 'send exactly one of uploadId and url' }]);
    expect(problems(uploadAdMediaRequest, { userId: 'u1', uploadId: 'upl_1', url: 'https://example.com/a.png' })).toEqual([
      { path: '', message: 'send exactly one of uploadId and url' },
    ]);
    expect(problems(uploadAdMediaRequest, { userId: 'u1', url: 'ftp://example.com/a.png' })).toEqual([{ path: 'url', message: 'must be an http(s) URL' }]);
  });

  it('an upload’s purpose picks its shape: the type is the problem, or the purpose when it is none of them', () => {
    const upload = { userId: 'u1', fileName: 'a', contentLength: 10 };
    expect(problems(createUploadRequest, { ...upload, purpose: 'image', contentType: 'text/csv' })).toEqual([
      { path: 'contentType', message: 'is required for an image: image/jpeg, image/png or image/gif' },
    ]);
    expect(problems(createUploadRequest, { ...upload, contentType: 'image/png' })).toEqual([
      { path: 'contentType', message: 'must be text/csv for a contact list (or left out)' },
    ]);
    expect(problems(createUploadRequest, { ...upload, purpose: 'sticker' })[0]?.path).toBe('purpose');
  });

  it('a body that is no object says so', () => {
    expect(problems(uploadAdMediaRequest, [])).toEqual([{ path: '', message: 'Invalid input: expected object, received array' }]);
  });
});
