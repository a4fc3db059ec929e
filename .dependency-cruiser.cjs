/**
 * The layers of shared/, enforced: imports only go down. `npm test` runs this (npm run lint:layers);
 * docs/architecture.md draws the same picture.
 *
 *   shared/http        (the top: may import any layer) the middleware and the operation definition: what functions/ builds on
 *   features           shared/audiences, webhooks, connect, jobs, uploads, docs, rules
 *   shared/platforms   one adapter per upstream platform, and their shared upstream core
 *   ports              shared/store, net, storage, queue, secrets: the outside world behind small modules
 *   shared/schemas     zod schemas of requests and results
 *   shared/core        configuration, clock, logger, errors, versions, declarations: depends on nothing of ours
 */
const layer = (...folders) => `^shared/(${folders.join('|')})/`;
const core = layer('core');
const schemas = layer('schemas');
const ports = layer('store', 'net', 'storage', 'queue', 'secrets');
const platforms = layer('platforms');
const features = layer('audiences', 'webhooks', 'connect', 'jobs', 'uploads', 'docs', 'rules');

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
      comment: 'shared/ never imports a function, the stacks or a test',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra|test|bench)/' },
    },
    {
      name: 'every-shared-file-has-a-layer',
      severity: 'error',
      comment: 'a module of shared/ belongs to one of the layers (a folder), not to shared/ itself',
      from: { path: '^shared/[^/]+$' },
      to: {},
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
      from: { path: '^(shared|functions)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
  },
};
