import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { encoded } from '../functions/use-cases/reports/export-job.ts';
import { derived } from '../functions/use-cases/reports/report-metrics.ts';
import type { RawReportRow } from '../shared/platforms/report-rows.ts';
import { peakRssMb } from './peak-rss.ts';

/**
 * One side of the export benchmark, in a process of its own so that its peak RSS is its own:
 * `export` runs N report rows (500 a page, as the platform pages them) through the export's own path
 * (metrics derived, csv encoded, gzip); `plain` gzips the same rows as JSON lines and nothing else.
 * Either way the gzipped bytes are counted and dropped. Prints {ms, bytes, peakRssMb}.
 */
const [count = '1000000', mode = 'export'] = process.argv.slice(2);
const rows = Number(count);
const PAGE = 500;
const placements = ['facebook|feed', 'instagram|instagram_stories', 'instagram|instagram_reels', 'audience_network|an_classic'];

function rowAt(index: number): RawReportRow {
  const impressions = 1_000 + (index % 9_000);
  const clicks = Math.floor(impressions / 40);
  return {
    date: `2026-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`,
    campaignId: String(120210987000000000 + (index % 97)),
    adSetId: String(1202109870000000000 + (index % 389)),
    adId: String(12021098700000000000 + (index % 1553)),
    name: `Campaign ${index % 97} · ad set ${index % 389} · ad ${index % 1553}`,
    dimension: { id: placements[index % 4] as string, name: 'Instagram Stories' },
    impressions: String(impressions),
    clicks: String(clicks),
    spend: (impressions * 0.0061).toFixed(2),
    conversions: String(index % 7),
    conversionValue: '0',
    reach: String(Math.floor(impressions / 1.3)),
    leads: String(index % 7),
  };
}

async function* pages(): AsyncGenerator<RawReportRow[]> {
  for (let from = 0; from < rows; from += PAGE) yield Array.from({ length: Math.min(PAGE, rows - from) }, (_, offset) => rowAt(from + offset));
}

async function* plainLines(): AsyncGenerator<string> {
  for await (const page of pages()) yield `${page.map((row) => JSON.stringify(row)).join('\n')}\n`;
}

async function* exported(): AsyncGenerator<string> {
  yield* encoded(
    'csv',
    (async function* () {
      for await (const page of pages()) yield { rows: page.map((row) => derived(row, 2)) };
    })(),
    () => undefined,
  );
}

const started = performance.now();
let bytes = 0;
for await (const chunk of Readable.from(mode === 'plain' ? plainLines() : exported()).pipe(createGzip())) bytes += (chunk as Buffer).length;
console.log(JSON.stringify({ ms: performance.now() - started, bytes, peakRssMb: peakRssMb() }));
