import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../functions/routes.ts';
import { buildOpenApiDocument } from '../../shared/docs/openapi.ts';

/**
 * A client's view of the document (docs/api-reference.md): types generated from the OpenAPI document
 * the service serves (openapi-typescript), a correct launch-and-run program that compiles under
 * `tsc --strict` with no cast, and wrong programs that do not. The client's tools live in a project of
 * their own beside this file (openapi-typescript needs TypeScript 5; the service builds with 7);
 * `npm test` installs it first (test:typed-client-setup).
 */
const run = promisify(execFile);
const here = fileURLToPath(new URL('./', import.meta.url));
const generated = `${here}.generated/`;
const document = buildOpenApiDocument(documentedRoutes) as { paths: Record<string, any> };

/** Every program type-checked in one run of tsc --strict; each program's errors, by file name. */
async function typeCheckAll(programs: string[]): Promise<Map<string, string[]>> {
  let output = '';
  try {
    await run(
      process.execPath,
      [
        `${here}node_modules/typescript/bin/tsc`,
        '--noEmit',
        '--strict',
        '--pretty',
        'false',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--lib',
        'es2022,dom',
        '--skipLibCheck',
        ...programs.map((program) => `programs/${program}`),
      ],
      { cwd: here },
    );
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  const errors = new Map(programs.map((program) => [program, [] as string[]]));
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    const file = /^programs\/([^(]+)\(/.exec(line)?.[1];
    if (file) current = errors.get(file);
    if (line.trim()) current?.push(line); // a message, and the lines that elaborate it
  }
  return errors;
}

let checked: Map<string, string[]>;
beforeAll(async () => {
  mkdirSync(generated, { recursive: true });
  writeFileSync(`${generated}openapi.json`, JSON.stringify(document));
  await run(process.execPath, [`${here}node_modules/openapi-typescript/bin/cli.js`, `${generated}openapi.json`, '-o', `${generated}api.d.ts`], { cwd: here });
  checked = await typeCheckAll(readdirSync(`${here}programs`).filter((file) => file.endsWith('.ts')));
}, 120_000);

describe('a typed client generated from the document', () => {
  it('compiles a correct launch-and-run program with no cast', () => {
    expect(checked.get('launch-and-run.ts')).toEqual([]);
  });

  const wrong: Array<[string, RegExp]> = [
    ['wrong-ad-both-media.ts', /TS2322/],
    ['wrong-ad-no-media.ts', /Property 'videoId' is missing/],
    ['wrong-media-both-sources.ts', /TS2322/],
    ['wrong-media-no-source.ts', /Property 'url' is missing/],
    ['wrong-image-as-csv.ts', /Type '"text\/csv"' is not assignable to type '"image\/(jpeg|png|gif)" \| /],
    ['wrong-status-typo.ts', /TS2367: This comparison appears to be unintentional/],
    ['wrong-backtest-neither.ts', /Property 'rule(Id)?' is missing/],
    ['wrong-append-no-audience.ts', /Property 'audienceId' is missing/],
  ];
  it('has a wrong program for each rule, and no other', () => {
    expect(
      readdirSync(`${here}programs`)
        .filter((file) => file.startsWith('wrong-'))
        .sort(),
    ).toEqual(wrong.map(([file]) => file).sort());
  });
  it.each(wrong)('refuses %s', (program, why) => {
    const errors = checked.get(program) ?? [];
    expect(errors.join('\n')).toMatch(why);
    expect(errors.filter((line) => /error TS/.test(line))).toHaveLength(1); // for that reason alone
  });

  it('a negative budget, which no TypeScript type of a decimal string can refuse, is refused by the document’s schema', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schema = document.paths['/social/create_campaign'].post.requestBody.content['application/json'].schema;
    const validate = ajv.compile(schema);
    const body = (dailyBudget: unknown) => ({
      userId: 'u1',
      name: 'Winter',
      objective: 'TRAFFIC',
      dailyBudget,
      targeting: { locations: [{ key: 'US', type: 'country' }] },
      ads: [
        { name: 'Ad 1', imageId: 'a'.repeat(32), primaryText: 'Warm up.', headline: 'Tune-ups', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' },
      ],
    });
    expect(validate(body('50'))).toBe(true);
    for (const negative of ['-5', -5, '0', 0]) expect(validate(body(negative)), String(negative)).toBe(false);
  });
});
