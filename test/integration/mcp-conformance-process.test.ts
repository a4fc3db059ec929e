import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildStack, startChildStack } from '../helpers/child-stack.ts';
import { startKeyProxy } from '../helpers/key-proxy.ts';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode) against `npm start`:
 * the scenarios that apply to a tool server. The suite's client sends no API key, so a loopback proxy
 * adds the demo tenant's and passes Host and Origin as they came (the DNS-rebinding scenario sends a
 * foreign pair, then the proxy's own loopback pair).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const CONFORMANCE_CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const DEMO_KEY = 'conformance-demo-key-000000000000000';

const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-mcp-conformance-'));
const outputDir = mkdtempSync(join(tmpdir(), 'ad-api-mcp-conformance-results-'));
let stack: ChildStack;
let proxy: Awaited<ReturnType<typeof startKeyProxy>>;

beforeAll(async () => {
  stack = await startChildStack(dataDir, DEMO_KEY);
  proxy = await startKeyProxy(stack.url, DEMO_KEY);
});

afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outputDir, { recursive: true, force: true });
});

/** One scenario's checks, as the suite writes them to its output folder. */
function runScenario(scenario: string): Promise<Array<{ id: string; status: string; errorMessage?: string }>> {
  const folder = join(outputDir, scenario);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CONFORMANCE_CLI, 'server', '--url', `${proxy.url}/mcp`, '--scenario', scenario, '-o', folder], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => {
      try {
        const [run] = readdirSync(folder);
        resolve(JSON.parse(readFileSync(join(folder, run as string, 'checks.json'), 'utf8')));
      } catch {
        reject(new Error(`the conformance suite wrote no checks for ${scenario}:\n${output}`));
      }
    });
  });
}

describe('MCP conformance (server mode) against npm start', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const checks = await runScenario(scenario);
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) expect(check, check.errorMessage).toMatchObject({ status: 'SUCCESS' });
  });

  it('logged no API key (the start banner prints the demo key, by design; no log line does)', () => {
    const leaked = stack
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes(DEMO_KEY));
    expect(leaked).toEqual([]);
  });
});
