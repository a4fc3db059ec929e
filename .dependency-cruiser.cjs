/**
 * The layers of shared/, enforced: imports only go down. `npm test` runs this (npm run lint:layers);
 * docs/architecture.md draws the same picture.
 *
 *   shared/http        (the top: may import any layer) the middleware and the operation definition: what functions/ builds on
 *   features           shared/audiences, webhooks, connect, jobs, uploads, docs, rules, media, leads, flows, conversions, agents
 *   shared/platforms   one adapter per upstream platform, and their shared upstream core
 *   ports              shared/store, net, storage, queue, secrets: the outside world behind small modules
 *   shared/schemas     zod schemas of requests and results
 *   shared/core        configuration, clock, logger, errors, versions, declarations: depends on nothing of ours
 */
/** Every folder of shared/, by layer, bottom first: a folder named nowhere here fails `npm test` (test/unit/house-rules.test.ts). */
const LAYERS = {
  core: ['core'],
  schemas: ['schemas'],
  ports: ['store', 'net', 'storage', 'queue', 'secrets'],
  platforms: ['platforms'],
  features: ['audiences', 'webhooks', 'connect', 'jobs', 'uploads', 'docs', 'rules', 'media', 'leads', 'flows', 'conversions', 'agents'],
  http: ['http'],
};
const layer = (folders) => `^shared/(${folders.join('|')})/`;
const core = layer(LAYERS.core);
const schemas = layer(LAYERS.schemas);
const ports = layer(LAYERS.ports);
const platforms = layer(LAYERS.platforms);
const features = layer(LAYERS.features);
const everyLayer = layer(Object.values(LAYERS).flat());

const below = (name, from, allowed) => ({
  name,
  severity: 'error',
  comment: `${name}: ${from} may import only from the layers below it`,
  from: { path: from },
  to: { path: '^shared/', pathNot: [from, ...allowed] },
});

module.exports = {
  forbidden: [
    below('core-is-the-bottom', core, []),
    below('schemas-sit-on-core', schemas, [core]),
    below('ports-sit-on-core-and-schemas', ports, [core, schemas]),
    below('platforms-sit-on-ports', platforms, [core, schemas, ports]),
    below('features-sit-on-platforms', features, [core, schemas, ports, platforms]),
    {
      name: 'shared-is-shared',
      severity: 'error',
      comment: 'shared/ never imports a function, the stacks, the local stack or a test',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra|local|test|bench)/' },
    },
    {
      name: 'every-shared-file-has-a-layer',
      severity: 'error',
      comment: 'a module of shared/ belongs to one of the layers (a folder named in LAYERS), not to shared/ itself',
      from: { path: '^shared/', pathNot: everyLayer },
      to: {},
    },
    {
      name: 'functions-never-import-the-local-stack',
      severity: 'error',
      comment: 'what runs in a Lambda knows nothing of the local stack, the CDK stack, tests or benches',
      from: { path: '^functions/' },
      to: { path: '^(infra|local|test|bench)/' },
    },
    {
      name: 'use-cases-sit-below-operations',
      severity: 'error',
      comment: 'functions/use-cases/ is what operations and workers call; it never imports one of them',
      from: { path: '^functions/use-cases/' },
      to: { path: '^functions/', pathNot: '^functions/use-cases/' },
    },
    {
      name: 'an-operation-is-its-folder',
      severity: 'error',
      comment: 'an operation (or a worker) imports its own folder, the use cases and shared/, never another operation',
      from: { path: '^functions/((?:workers/)?[^/]+)/', pathNot: ['^functions/use-cases/', '^functions/workers/index\\.ts$'] },
      to: { path: '^functions/', pathNot: ['^functions/$1/', '^functions/use-cases/'] },
    },
    {
      name: 'the-cloud-stack-never-imports-the-local-one',
      severity: 'error',
      comment: 'the CDK stack deploys what shared/ and functions/ declare; the local stack is a consumer of the same declarations',
      from: { path: '^infra/', pathNot: '^infra/admin\\.ts$' },
      to: { path: '^local/' },
    },
    {
      name: 'the-local-stack-is-no-test',
      severity: 'error',
      comment: 'local/ runs under npm start; it never imports a test or a bench',
      from: { path: '^local/' },
      to: { path: '^(test|bench)/' },
    },
    ...[
      ['store', '@aws-sdk/(client|lib|util)-dynamodb'],
      ['storage', '@aws-sdk/(client-s3|s3-request-presigner)'],
      ['queue', '@aws-sdk/client-sqs'],
      ['secrets', '@aws-sdk/client-secrets-manager'],
    ].map(([port, sdk]) => ({
      name: `only-${port}-speaks-${sdk.replace(/\W+/g, '-')}`,
      severity: 'error',
      comment: `every use of this AWS service goes through shared/${port}/`,
      from: { path: '^(shared|functions)/', pathNot: `^shared/${port}/` },
      to: { path: `node_modules/${sdk}/` },
    })),
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no module imports itself through others, types included: the service, the stacks and the local stack alike',
      from: { path: '^(shared|functions|infra|local)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
  },
};
