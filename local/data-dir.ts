import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stack's data folder and who holds it, apart from the stack itself: the admin CLI and the
 * tests ask whether a stack runs without loading one (a few milliseconds, where the stack's modules take
 * over a second).
 */
export const DEFAULT_DATA_DIR = '.data';

/** While `npm start` runs, its pid is in this file of the data folder (dynalite holds the folder's LevelDB). */
export const PID_FILE = 'server.pid';

/** The pid of a running local stack that holds `dataDir`, if any. */
export function runningStackPid(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, PID_FILE), 'utf8'));
  } catch (error) {
    // none, or removed a moment ago by a stack that stopped (several starting at once race for the folder)
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined; // left behind by a stack that was killed
  }
}

export class DataDirTaken extends Error {
  readonly holder: number;

  constructor(holder: number, dataDir: string) {
    super(`Another local stack (pid ${holder}) is using ${dataDir}; stop it or set DATA_DIR.`);
    this.holder = holder;
  }
}
