import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from '../setup/chromium.ts';

/** Chromium for a browser test, installed by `npm test`'s pretest step (test/setup/install-chromium.ts). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No chromium at ${CHROMIUM_PATH}: run \`npm run test:browser-setup\` (or set CHROMIUM_PATH).`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}
