import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm test`: the static checks (type check, lint, layer rules: `npm run checks`) beside the tests
 * (`vitest run`, with any arguments given), not before them. The checks take about 14 s, at a lower
 * CPU priority (the lowest) so the tests keep the cores; their output is printed after the tests', and either
 * failing fails the run.
 */
const logDir = mkdtempSync(join(tmpdir(), 'ad-api-checks-'));
const checksLog = join(logDir, 'checks.log');
const exitOf = (child: ReturnType<typeof spawn>) => new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

const output = openSync(checksLog, 'w');
// below the test workers (nice 10, test/setup/low-priority.ts), which are below the shared stack
const checks = exitOf(spawn('nice', ['-n', '19', 'npm', 'run', '-s', 'checks'], { stdio: ['ignore', output, output] }));
const tests = exitOf(spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' }));

const [testsExit, checksExit] = [await tests, await checks];
process.stdout.write(`\nstatic checks (type check, lint, layer rules): ${checksExit === 0 ? 'passed' : 'FAILED'}\n${readFileSync(checksLog, 'utf8')}`);
rmSync(logDir, { recursive: true, force: true });
process.exit(testsExit || checksExit);
