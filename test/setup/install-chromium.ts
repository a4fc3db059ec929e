import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PACKAGE, CHROMIUM_PATH } from './chromium.ts';

/**
 * `npm test`'s pretest step: the browser tests drive Debian's headless shell of Chromium, which a fresh
 * machine lacks. Installs it with apt-get when missing (as root, or through passwordless sudo); does nothing when
 * it is there or CHROMIUM_PATH names another one.
 */
const chromium = CHROMIUM_PATH;
if (existsSync(chromium)) process.exit(0);
if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH=${chromium} does not exist.`);
  process.exit(1);
}

const asRoot = process.getuid?.() === 0;
const run = (command: string, args: string[]) => {
  const [file, argv] = asRoot ? [command, args] : ['sudo', ['-n', command, ...args]];
  execFileSync(file, argv, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
try {
  console.log(`Installing Debian’s ${CHROMIUM_PACKAGE} for the browser tests (once per machine)…`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', CHROMIUM_PACKAGE]);
} catch {
  console.error(`Could not install ${CHROMIUM_PACKAGE} with apt-get. Install that package, or set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(1);
}
if (!existsSync(chromium)) {
  console.error(`apt-get finished but ${chromium} is missing.`);
  process.exit(1);
}
