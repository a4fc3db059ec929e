import { imageSize } from 'image-size';
import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import { InvalidRequest } from '../../core/errors.ts';
import { DownloadRefused, downloadPublicUrl, type DownloadFailure } from '../../net/public-download.ts';
import type { CallBudget } from '../upstream.ts';

/**
 * Image URLs fetched for image assets (docs/platforms.md, "Search ads"): JPEG or PNG, at most 5 MB each and 20 MB in
 * all, landscape 1.91:1 (at least 600×314) or square (at least 300×300). A URL that cannot be used
 * is the client's problem (400), found before the mutate is sent. Only public addresses are fetched.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_TOTAL_BYTES = 20 * 1024 * 1024;
const RATIO_TOLERANCE = 0.01;

export interface FetchedImage {
  url: string;
  base64: string;
}

function refuse(index: number, message: string): never {
  throw new InvalidRequest(`images.${index}: ${message}.`, [{ path: `images.${index}`, message }]);
}

export function checkImage(bytes: Buffer, index: number): void {
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    refuse(index, 'the URL does not hold a JPEG or PNG image');
  }
  if (size.type !== 'jpg' && size.type !== 'png') refuse(index, `the image is ${String(size.type).toUpperCase()}; only JPEG and PNG are accepted`);
  const width = size.width ?? 0;
  const height = size.height ?? 0;
  const ratio = width / height;
  if (Math.abs(ratio - 1) <= RATIO_TOLERANCE) {
    if (width < 300) refuse(index, `a square image must be at least 300×300; this one is ${width}×${height}`);
  } else if (Math.abs(ratio - 1.91) <= 1.91 * RATIO_TOLERANCE) {
    if (width < 600 || height < 314) refuse(index, `a landscape image must be at least 600×314; this one is ${width}×${height}`);
  } else {
    refuse(index, `the image is ${width}×${height}; it must be landscape 1.91:1 or square 1:1`);
  }
}

const DOWNLOAD_FAILURES: Record<DownloadFailure, string> = {
  'not-public': 'the image URL must point to a public internet address',
  'not-https': 'the image URL must be https',
  'too-large': 'the image is larger than 5 MB',
  unreachable: 'the image could not be downloaded',
  'too-many-redirects': 'the image URL redirects more than 3 times',
};

export async function fetchImages(urls: string[], budget: CallBudget): Promise<FetchedImage[]> {
  let total = 0;
  return Promise.all(
    urls.map(async (url, index) => {
      let bytes: Buffer;
      try {
        bytes = await downloadPublicUrl(url, {
          maxBytes: MAX_IMAGE_BYTES,
          signal: AbortSignal.timeout(Math.max(1, Math.min(config().UPSTREAM_TIMEOUT_MS, budget.deadline - clock.now()))),
          allowedNetworks: config().OUTBOUND_ALLOWED_NETWORKS.networks,
        });
      } catch (error) {
        if (error instanceof DownloadRefused && error.status) refuse(index, `downloading the image answered HTTP ${error.status}`);
        refuse(index, DOWNLOAD_FAILURES[error instanceof DownloadRefused ? error.reason : 'unreachable']);
      }
      total += bytes.length;
      if (total > MAX_TOTAL_BYTES) refuse(index, 'the images add up to more than 20 MB');
      checkImage(bytes, index);
      return { url, base64: bytes.toString('base64') };
    }),
  );
}
