import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_MARKERS, SIMPLE_READS } from '../../bench/cold-start.ts';
import { AdCampaignApiStack, type AdCampaignApiStackProps } from '../../infra/stack.ts';
import { MAX_RESOURCES_PER_TEMPLATE, STACK_AREAS } from '../../infra/stack-areas.ts';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import { workers } from '../../functions/workers/index.ts';
import { jobQueue, queueDefinitions, schedules, webhookQueue } from '../../shared/core/queues.ts';
import { builtBundles } from '../helpers/function-bundles.ts';
import { grantsOf } from '../../shared/core/function-declaration.ts';
import { awsCallsOf, type AwsResource } from '../helpers/aws-calls.ts';
import { CREDENTIAL_KEYS } from '../../shared/secrets/app-credentials.ts';

/**
 * The CDK stack, proven by synthesis: routes, runtimes, data stores, least privilege, cdk-nag. Its
 * functions are the bundles the run built once (test/setup/function-bundles.ts), as `cdk synth` builds them.
 */
const bundles = await builtBundles();
const assemblies = mkdtempSync(join(tmpdir(), 'ad-api-cdk-'));
function synth(stage: string, { props = {} }: { props?: Partial<AdCampaignApiStackProps> } = {}) {
  // the cloud assembly (about 150 MB with the bundles) in a folder of the run's, removed after it
  const app = new App({ context: { stage }, outdir: mkdtempSync(join(assemblies, `${stage}-`)) });
  const stack = new AdCampaignApiStack(app, `AdCampaignApi-${stage}`, { stage, bundles, ...props });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const assembly = app.synth();
  const root = Template.fromStack(stack);
  const templates = [root, ...[...stack.areas.values()].map((nested) => Template.fromStack(nested))];
  // every resource of the root and its nested stacks in one template, for the assertions that look across them
  const merged = Template.fromJSON({
    Resources: Object.assign({}, ...templates.map((template) => (template.toJSON() as { Resources: object }).Resources)),
    Outputs: (root.toJSON() as { Outputs?: object }).Outputs ?? {},
  });
  return { stack, template: merged, templates, assemblyDirectory: assembly.directory };
}

let prod: ReturnType<typeof synth>;
let dev: ReturnType<typeof synth>;
beforeAll(() => {
  prod = synth('prod');
  dev = synth('dev');
}, 180_000);
afterAll(() => rmSync(assemblies, { recursive: true, force: true }));

type Resource = { Type: string; Properties: Record<string, any> };
/** CloudFormation logical ids drop the underscores of the construct ids */
const logical = (operation: string) => operation.replaceAll('_', '');
const resources = (template: Template, type: string) => Object.entries(template.findResources(type)) as Array<[string, Resource]>;

const policiesOf = (operation: string) =>
  resources(prod.template, 'AWS::IAM::Policy')
    .filter(([id]) => id.startsWith(`${logical(operation)}FunctionServiceRoleDefaultPolicy`))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<{ Effect: string; Action: string | string[]; Resource: unknown }>);

describe('CloudFormation’s limits', () => {
  it('no template holds more than 300 resources: the functions are in nested stacks by area, the shared resources in the root', () => {
    const counts = prod.templates.map((template) => Object.keys((template.toJSON() as { Resources: object }).Resources).length);
    expect(prod.stack.areas.size).toBe(STACK_AREAS.length);
    for (const count of counts) expect(count).toBeLessThanOrEqual(MAX_RESOURCES_PER_TEMPLATE);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(400); // the whole service, split
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unsuppressed error or warning', () => {
    for (const { stack } of [prod, dev]) {
      expect(Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
      expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    }
  });

  it('gives a reason for every suppression', () => {
    for (const [, resource] of Object.entries(
      prod.template.toJSON().Resources as Record<string, { Metadata?: { cdk_nag?: { rules_to_suppress?: Array<{ reason: string }> } } }>,
    )) {
      for (const rule of resource.Metadata?.cdk_nag?.rules_to_suppress ?? []) expect(rule.reason.length).toBeGreaterThan(30);
    }
  });
});

describe('routes and functions', () => {
  it('has one route per operation of the route table, each reaching its own function, and the catch-all', () => {
    const integrations = new Map(resources(prod.template, 'AWS::ApiGatewayV2::Integration'));
    const routeResources = resources(prod.template, 'AWS::ApiGatewayV2::Route');
    expect(routeResources).toHaveLength(routes.length + 1);
    for (const route of [
      ...routes.map((entry) => ({ key: `${entry.method} ${entry.path}`, operation: entry.operation })),
      { key: '$default', operation: 'route_not_found' },
    ]) {
      const found = routeResources.find(([, resource]) => resource.Properties.RouteKey === route.key);
      expect(found, route.key).toBeDefined();
      const integrationId = found?.[1].Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = integrations.get(integrationId);
      expect(integration?.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(integration?.Properties.PayloadFormatVersion).toBe('2.0');
      const functionId = integration?.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      expect(functionId.startsWith(`${logical(route.operation)}Function`), functionId).toBe(true);
    }
  });

  it('runs every function on Node 24, arm64, traced, with a log retention and a timeout inside API Gateway’s 29 s', () => {
    const functions = resources(prod.template, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(routes.length + 1 + workers.length);
    const workerIds = workers.map((worker) => `${logical(worker.operation)}Function`);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      // HTTP functions answer inside API Gateway's 29 s; workers have Lambda's 15 minutes
      expect(fn.Properties.Timeout).toBeLessThanOrEqual(workerIds.some((prefix) => id.startsWith(prefix)) ? 900 : 28);
      expect(fn.Properties.Handler).toBe('index.handler');
    }
    for (const [, group] of resources(prod.template, 'AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
    const csv = functions.filter(([id]) => id.startsWith('createsocialcsvaudience') || id.startsWith('createcsvaudience'));
    expect(csv).toHaveLength(2);
    for (const [, fn] of csv) {
      expect(fn.Properties.MemorySize).toBe(1024);
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps --max-semi-space-size=4');
    }
  });

  it('throttles the stage, writes access logs and alarms on 5xx and throttles', () => {
    prod.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
    const alarms = resources(prod.template, 'AWS::CloudWatch::Alarm');
    expect(alarms.some(([, alarm]) => alarm.Properties.MetricName === '5xx')).toBe(true);
    expect(alarms.filter(([, alarm]) => alarm.Properties.MetricName === 'Throttles')).toHaveLength(routes.length + 1 + workers.length);
  });

  it('is what docs/deploying.md says: its alarm count (and their cost), and how many functions may touch the bucket', () => {
    const doc = readFileSync(new URL('../../docs/deploying.md', import.meta.url), 'utf8');
    const alarms = resources(prod.template, 'AWS::CloudWatch::Alarm').length;
    expect(doc).toContain(`${alarms} alarms in all`);
    expect(doc).toContain(`${alarms} of them\n($${(alarms / 10).toFixed(2)})`);
    const bucketUsers = resources(prod.template, 'AWS::IAM::Policy').filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes('"s3:'));
    expect(doc).toContain(`for the ${bucketUsers.length} functions that stage or read uploaded files`);
  });
});

describe('data stores', () => {
  it('builds the tables from the shared definitions: on demand, point-in-time recovery, customer-managed key', () => {
    const tables = resources(prod.template, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(2);
    const keys = tables.map(([, table]) => table.Properties.KeySchema.map((key: { AttributeName: string }) => key.AttributeName).join(','));
    expect(keys.sort()).toEqual(['id', 'pk,sk']);
    for (const [, table] of tables) {
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: expect.anything() });
      expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      expect(table.Properties.TimeToLiveSpecification?.Enabled).toBe(true);
    }
    for (const [, table] of resources(dev.template, 'AWS::DynamoDB::Table')) expect(table.Properties.DeletionProtectionEnabled).toBe(false);
  });

  it('keeps the upload bucket private, encrypted with KMS, TLS-only, unversioned, with staged uploads expiring', () => {
    const [[, bucket]] = resources(prod.template, 'AWS::S3::Bucket') as [[string, Resource]];
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('aws:kms');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 2, Status: 'Enabled' }),
      expect.objectContaining({ Prefix: 'conversions/', ExpirationInDays: 7, Status: 'Enabled' }),
      expect.objectContaining({ Prefix: 'exports/', ExpirationInDays: 7, Status: 'Enabled' }),
    ]);
    const [[, policy]] = resources(prod.template, 'AWS::S3::BucketPolicy') as [[string, Resource]];
    const statements = policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>;
    expect(statements.some((statement) => statement.Effect === 'Deny' && statement.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
    expect(statements.filter((statement) => statement.Effect === 'Allow' && statement.Principal === '*')).toEqual([]);
  });
});

describe('least privilege', () => {
  const actionsOf = (operation: string) => policiesOf(operation).flatMap((statement) => [statement.Action].flat());

  it.each(routes.map((route) => [route.operation, route] as const))('%s has only what it uses', (operation, route) => {
    const actions = actionsOf(operation);
    const s3 = actions.filter((action) => action.startsWith('s3:'));
    if (route.usesUploadBucket) expect(s3.sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    else expect(s3).toEqual([]);
    expect(actions.includes('secretsmanager:GetSecretValue')).toBe(grantsOf(route).appCredentials || grantsOf(route).connectionKey);
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
    const mainTableStatement = policiesOf(operation).find((statement) => [statement.Action].flat().includes('dynamodb:Query'));
    expect([mainTableStatement?.Action].flat().some((action) => writes.includes(action as string))).toBe(grantsOf(route).writes);
    expect(actions.some((action) => /^dynamodb:(Scan|BatchWriteItem|\*)$/.test(action))).toBe(false);
    if (route.public) expect(actions.filter((action) => /^(dynamodb|kms|s3|secretsmanager):/.test(action))).toEqual([]);
  });

  it('gives the published interface’s functions no table name, no key and no secret', () => {
    for (const route of routes.filter((entry) => entry.public)) {
      const [[, fn]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith(`${logical(route.operation)}Function`)) as [
        [string, Resource],
      ];
      expect(Object.keys(fn.Properties.Environment.Variables).sort(), route.operation).toEqual([
        'LOG_LEVEL',
        'NODE_OPTIONS',
        'POWERTOOLS_SERVICE_NAME',
        'STAGE',
      ]);
    }
  });

  it('lets only the platform functions read the app credentials, and only those and create_user the connection key', () => {
    for (const [id, fn] of resources(prod.template, 'AWS::Lambda::Function')) {
      const route = [...routes, ...workers].find((entry) => id.startsWith(`${logical(entry.operation)}Function`));
      expect(Boolean(fn.Properties.Environment.Variables.APP_CREDENTIALS_SECRET_ARN), id).toBe(Boolean(route && grantsOf(route).appCredentials));
      expect(Boolean(fn.Properties.Environment.Variables.CONNECTION_KEY_SECRET_ARN), id).toBe(Boolean(route && grantsOf(route).connectionKey));
    }
    const readers = resources(prod.template, 'AWS::IAM::Policy').filter(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).some((statement) =>
        [statement.Action].flat().includes('secretsmanager:GetSecretValue'),
      ),
    );
    expect(readers).toHaveLength([...routes, ...workers].filter((route) => grantsOf(route).connectionKey || grantsOf(route).appCredentials).length);
  });
});

describe('every AWS call a function’s bundle can make is allowed by its IAM policy', () => {
  // the calls come from the modules esbuild bundles (the code), the policy from the declarations: two sources
  const LOGICAL_PREFIX: Record<AwsResource, RegExp> = {
    // in a nested stack, a root resource is a parameter named after it (referencetoAdCampaignApiprodMainTable…)
    'main-table': /^(referenceto\w+?)?MainTable/,
    'idempotency-table': /^(referenceto\w+?)?IdempotencyTable/,
    'upload-bucket': /^(referenceto\w+?)?UploadBucket/,
    secret: /^(referenceto\w+?)?(AppCredentials|ConnectionKey)/,
    queue: /Queue/,
  };
  const referencedIds = (resource: unknown): string[] =>
    JSON.stringify(resource)
      .match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/g)
      ?.map((ref) => ref.replace(/.*"([A-Za-z0-9]+)"$/, '$1')) ?? [];
  const allows = (granted: string, action: string) => new RegExp(`^${granted.replaceAll('*', '.*')}$`).test(action);

  it.each([...routes, fallbackRoute, ...workers].map((route) => route.operation))(
    '%s',
    (operation) => {
      const calls = awsCallsOf(bundles.modulesOf(operation));
      const statements = policiesOf(operation).filter((statement) => statement.Effect === 'Allow');
      const missing = calls.filter(
        (call) =>
          !statements.some(
            (statement) =>
              [statement.Action].flat().some((granted) => allows(granted, call.action)) &&
              [statement.Resource].flat().some((resource) => referencedIds(resource).some((id) => LOGICAL_PREFIX[call.resource].test(id))),
          ),
      );
      expect(missing, `${operation} can make calls its policy does not allow`).toEqual([]);
      if (operation === 'get_profile') expect(calls.map((call) => call.action)).toContain('dynamodb:GetItem'); // the reading works at all
    },
    60_000,
  );
});

describe('queues, workers and schedules', () => {
  it('gives every queue a KMS-encrypted dead-letter queue, an alarm on it, and a visibility well above its consumer’s timeout', () => {
    const queues = resources(prod.template, 'AWS::SQS::Queue');
    expect(queues).toHaveLength(queueDefinitions.length * 2);
    const [[, main]] = queues.filter(([id]) => id.startsWith(`${webhookQueue.id}Queue`)) as [[string, Resource]];
    expect(main.Properties.VisibilityTimeout).toBe(webhookQueue.visibilityTimeoutSeconds);
    expect(main.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(3 * webhookQueue.consumerTimeoutSeconds);
    expect(main.Properties.RedrivePolicy).toMatchObject({
      maxReceiveCount: webhookQueue.maxReceiveCount,
      deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^WebhookDeliveriesDeadLetters/), 'Arn'] },
    });
    for (const [, queue] of queues) expect(queue.Properties.KmsMasterKeyId).toBeDefined();
    const alarms = resources(prod.template, 'AWS::CloudWatch::Alarm').filter(
      ([, alarm]) => alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible',
    );
    expect(alarms).toHaveLength(queueDefinitions.length);
  });

  it('feeds the delivery worker from its queue with partial batch failures, within its timeout', () => {
    const [[, mapping]] = resources(prod.template, 'AWS::Lambda::EventSourceMapping').filter(([, entry]) =>
      JSON.stringify(entry.Properties.FunctionName).includes('deliverwebhooks'),
    ) as [[string, Resource]];
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain('deliverwebhooksFunction');
    const [[, worker]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('deliverwebhooksFunction')) as [[string, Resource]];
    expect(worker.Properties.Timeout).toBe(webhookQueue.consumerTimeoutSeconds);
    expect(worker.Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toBeDefined();
  });

  it('feeds the job worker one message at a time within a visibility above its timeout, and the dead letters to the function that ends their jobs', () => {
    const mappings = resources(prod.template, 'AWS::Lambda::EventSourceMapping');
    const [[, runner]] = mappings.filter(([, entry]) => JSON.stringify(entry.Properties.FunctionName).includes('runjobs')) as [[string, Resource]];
    expect(runner.Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(JSON.stringify(runner.Properties.EventSourceArn)).toContain('JobsQueue');
    const [[, abandoned]] = mappings.filter(([, entry]) => JSON.stringify(entry.Properties.FunctionName).includes('endabandonedjobs')) as [[string, Resource]];
    expect(JSON.stringify(abandoned.Properties.EventSourceArn)).toContain('JobsDeadLetters');
    const [[, worker]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('runjobsFunction')) as [[string, Resource]];
    expect(worker.Properties.Timeout).toBe(jobQueue.consumerTimeoutSeconds);
    expect(jobQueue.visibilityTimeoutSeconds).toBeGreaterThan(jobQueue.consumerTimeoutSeconds);
    expect(worker.Properties.Environment.Variables).toMatchObject({
      JOB_QUEUE_URL: expect.anything(),
      WEBHOOK_QUEUE_URL: expect.anything(),
      UPLOAD_BUCKET: expect.anything(),
    });
    const alarms = resources(prod.template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties.MetricName);
    expect(alarms.filter((name) => name === 'ApproximateAgeOfOldestMessage')).toHaveLength(queueDefinitions.length);
    expect(alarms.filter((name) => name === 'Errors').length).toBeGreaterThanOrEqual(2);
  });

  it('lets a browser PUT a list to the upload bucket’s presigned URLs (CORS), and nothing else', () => {
    const [[, bucket]] = resources(prod.template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('UploadBucket')) as [[string, Resource]];
    expect(bucket.Properties.CorsConfiguration.CorsRules).toEqual([
      { AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['content-type'], MaxAge: 3000 },
    ]);
  });

  it('streams the main table’s new images to the event flows’ relay, filtered to the items it must queue, and indexes the items still due', () => {
    const [[, table]] = resources(prod.template, 'AWS::DynamoDB::Table').filter(([id]) => id.startsWith('MainTable')) as [[string, Resource]];
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(table.Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'due',
        KeySchema: [
          { AttributeName: 'dueShard', KeyType: 'HASH' },
          { AttributeName: 'dueAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'dueShard', AttributeType: 'S' },
        { AttributeName: 'dueAt', AttributeType: 'N' },
      ]),
    );
    const streamSources = resources(prod.template, 'AWS::Lambda::EventSourceMapping').filter(([, mapping]) => mapping.Properties.StartingPosition === 'LATEST');
    expect(streamSources).toHaveLength(1);
    const [[, mapping]] = streamSources as [[string, Resource]];
    expect(mapping.Properties.FunctionName.Ref).toMatch(/^relayflowitems/i);
    expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({ dynamodb: { NewImage: { relay: { BOOL: [true] } } } });
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('runs the sweeps and the rule scheduler on their schedules, and only the functions that queue events may send to the queue', () => {
    const rules = resources(prod.template, 'AWS::Events::Rule');
    // one rule per scheduled worker, at the period its schedule defines
    const rate = (minutes: number) => (minutes % 60 === 0 ? `rate(${minutes / 60} hour${minutes === 60 ? '' : 's'})` : `rate(${minutes} minutes)`);
    const expected = workers.flatMap((worker) => (worker.schedule ? [rate(schedules[worker.schedule].everyMinutes)] : []));
    expect(expected).toHaveLength(Object.keys(schedules).length);
    expect(rules.map(([, rule]) => rule.Properties.ScheduleExpression).sort()).toEqual(expected.sort());
    const senders = resources(prod.template, 'AWS::IAM::Policy')
      .filter(([, policy]) =>
        (policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).some((statement) =>
          [statement.Action].flat().includes('sqs:SendMessage'),
        ),
      )
      .map(([id]) => id.replace(/FunctionServiceRoleDefaultPolicy.*$/, ''));
    expect(senders.sort()).toEqual(
      [...routes, ...workers]
        .filter((entry) => grantsOf(entry).sendsTo.length > 0)
        .map((entry) => logical(entry.operation))
        .sort(),
    );
  });
});

describe('bundles', () => {
  /** The folder of the code the stack deploys for one function, as synthesized. */
  const assetOf = (operation: string) => {
    const [[, fn]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith(`${logical(operation)}Function`)) as [[string, Resource]];
    return join(prod.assemblyDirectory, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
  };

  it('deploys each function’s folder of the one esbuild run as it was built', () => {
    for (const route of [...routes, fallbackRoute, ...workers]) {
      const built = readFileSync(join(bundles.folderOf(route.operation), 'index.mjs'));
      expect(readFileSync(join(assetOf(route.operation), 'index.mjs')).equals(built), route.operation).toBe(true);
    }
  });

  // Lambda starts each function with --enable-source-maps, which reads the map at every cold start
  it('deploys a source map beside each bundle, naming the project’s files without carrying their text', () => {
    for (const entry of [...routes, ...workers]) {
      const map = JSON.parse(readFileSync(join(assetOf(entry.operation), 'index.mjs.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(map.sourcesContent, entry.operation).toBeUndefined();
      expect(map.sources, entry.operation).toContain(`../../../${entry.entry}`);
    }
  });

  it('gives a function of one platform none of another platform’s code', () => {
    for (const entry of [...routes, ...workers].filter((fn) => 'platform' in fn && fn.platform)) {
      const code = readFileSync(join(assetOf(entry.operation), 'index.mjs'), 'utf8');
      const others = Object.entries(PLATFORM_MARKERS).filter(([platform, marker]) => platform !== entry.platform && code.includes(marker));
      expect(
        others.map(([platform]) => platform),
        entry.operation,
      ).toEqual([]);
    }
  });

  it.each(SIMPLE_READS)('gives %s, a simple read, no module of zod’s classic API: its request schema is written with the mini API', (operation) => {
    const classic = [...bundles.modulesOf(operation)].filter(([path, bytes]) => bytes > 0 && path.includes('node_modules/zod/v4/classic/'));
    expect(classic.map(([path]) => path)).toEqual([]);
  });

  it.each(['create_link', 'connect_start'])('gives %s, which calls no platform, none of any platform’s code', (operation) => {
    const code = readFileSync(join(assetOf(operation), 'index.mjs'), 'utf8');
    expect(Object.entries(PLATFORM_MARKERS).filter(([, marker]) => code.includes(marker))).toEqual([]);
  });

  it('puts the files a function reads at run time beside its code', () => {
    for (const route of routes.filter((entry) => entry.bundledFiles)) {
      expect(readdirSync(assetOf(route.operation))).toEqual(expect.arrayContaining(['index.mjs', ...Object.keys(route.bundledFiles ?? {})]));
    }
  });

  it('takes node:http and node:https through their CommonJS shims, never by an ESM import', () => {
    for (const entry of [...routes, ...workers]) {
      const code = readFileSync(join(assetOf(entry.operation), 'index.mjs'), 'utf8');
      expect(code.match(/(from|import)\s*["'](node:)?https?["']/g) ?? [], entry.operation).toEqual([]);
    }
    const storeClient = readFileSync(join(assetOf('get_profile'), 'index.mjs'), 'utf8');
    expect(storeClient).toContain('getBuiltinModule("node:http")');
    expect(storeClient).toContain('getBuiltinModule("node:https")');
  });

  // that the environment's credentials work is the bundle test's: every bundle's valid read answers 200 against the local store
  it('takes AWS credentials from the environment Lambda sets, without the default chain’s other sources', () => {
    for (const entry of [...routes, ...workers]) {
      const code = readFileSync(join(assetOf(entry.operation), 'index.mjs'), 'utf8');
      // web identity, SSO and shared-file profiles, each with the STS or SSO client it carries
      for (const source of ['AWS_WEB_IDENTITY_TOKEN_FILE', 'sso_start_url', 'credential_process'])
        expect(code.includes(source), `${entry.operation}: ${source}`).toBe(false);
    }
  });
});

describe('what the snapshot used to pin, asserted by name', () => {
  it('gives each function the memory, NODE_OPTIONS and process settings it declares', () => {
    for (const route of [...routes, ...workers]) {
      const [[, fn]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith(`${logical(route.operation)}Function`)) as [
        [string, Resource],
      ];
      expect(fn.Properties.MemorySize, route.operation).toBe(route.memoryMb ?? 256);
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, route.operation).toBe(['--enable-source-maps', route.nodeOptions].filter(Boolean).join(' '));
      expect(fn.Properties.Environment.Variables, route.operation).toMatchObject(route.processEnvironment ?? {});
    }
    const worker = workers.find((entry) => entry.operation === 'run_jobs');
    expect(worker?.processEnvironment).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  it('rotates its customer-managed keys and names what an operator needs in its outputs', () => {
    for (const [, key] of resources(prod.template, 'AWS::KMS::Key')) expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(Object.keys(prod.template.toJSON().Outputs ?? {}).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'AppCredentialsSecretArn',
        'GatewayUrl',
        'ProfessionalCallbackUrl',
        'ProfessionalPlatformWebhookUrl',
        'SearchadsCallbackUrl',
        'SocialCallbackUrl',
        'SocialPlatformWebhookUrl',
        'TableName',
        ...(routes.some((route) => route.path === '/mcp') ? ['McpUrl'] : []),
      ].sort(),
    );
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.SearchadsCallbackUrl?.Value)).toMatch(/ApiEndpoint.*\/auth\/callback\/searchads/);
  });

  it('serves the connect routes without an API key, each throttled on its own, and gives every operation the public base URL', () => {
    const browserRoutes = routes.filter((route) => route.browser);
    expect(browserRoutes.length).toBe(4);
    const [[, stage]] = resources(prod.template, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    expect(Object.keys(stage.Properties.RouteSettings).sort()).toEqual(browserRoutes.map((route) => `${route.method} ${route.path}`).sort());
    for (const settings of Object.values(stage.Properties.RouteSettings as Record<string, { ThrottlingBurstLimit: number; ThrottlingRateLimit: number }>)) {
      expect(settings.ThrottlingRateLimit).toBeLessThan(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit);
    }
    for (const route of browserRoutes) {
      const [[, routeResource]] = resources(prod.template, 'AWS::ApiGatewayV2::Route').filter(([id]) => id.startsWith(`${logical(route.operation)}Route`)) as [
        [string, Resource],
      ];
      expect(routeResource.Properties.RouteKey).toBe(`${route.method} ${route.path}`);
      expect(routeResource.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
    const [[, createLink]] = resources(prod.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('createlinkFunction')) as [[string, Resource]];
    expect(JSON.stringify(createLink.Properties.Environment.Variables.PUBLIC_BASE_URL)).toContain('ApiEndpoint');
  });
});

describe('going live (docs/going-live.md)', () => {
  // a stage as an operator deploys it: a custom domain, an address for the alarms and an on-call topic, all from context
  let live: ReturnType<typeof synth>;
  beforeAll(() => {
    live = synth('live', {
      props: {
        customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/abc' },
        alarmEmail: 'oncall@example.com',
        alarmTopicArn: 'arn:aws:sns:us-east-1:111122223333:pager',
      },
    });
  }, 120_000);
  const outputs = () => live.template.toJSON().Outputs as Record<string, { Value: unknown }>;

  it('sends every alarm of the stage to its encrypted topic and to the operator’s, and back when it is over', () => {
    const [[topicId, topic]] = resources(live.template, 'AWS::SNS::Topic') as [[string, Resource]];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    live.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    const alarms = resources(live.template, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(80);
    for (const [id, alarm] of alarms) {
      const actions = JSON.stringify(alarm.Properties.AlarmActions);
      expect(actions, id).toMatch(new RegExp(`${topicId}|AlarmTopic`));
      expect(actions, id).toContain('arn:aws:sns:us-east-1:111122223333:pager');
      expect(JSON.stringify(alarm.Properties.OKActions), id).toContain('pager');
    }
    // an alarm on what only the operator can mend: a platform refusing the service's own app
    expect(alarms.some(([, alarm]) => alarm.Properties.MetricName === 'PlatformAccessNotApproved' && alarm.Properties.Namespace === 'AdCampaignApi')).toBe(
      true,
    );
  });

  it('has a dashboard per stage', () => {
    const [[, dashboard]] = resources(live.template, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    expect(dashboard.Properties.DashboardName).toBe('ad-campaign-api-live');
    expect(JSON.stringify(dashboard.Properties.DashboardBody)).toContain('PlatformAccessNotApproved');
  });

  it('serves the API on the custom domain, and builds every URL a platform or an operator needs on it', () => {
    live.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api.example.com' });
    live.template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {});
    expect(outputs().ApiUrl?.Value).toBe('https://api.example.com');
    expect(outputs().SocialPlatformWebhookUrl?.Value).toBe('https://api.example.com/platform-webhooks/social');
    expect(outputs().ProfessionalPlatformWebhookUrl?.Value).toBe('https://api.example.com/platform-webhooks/professional');
    expect(outputs().SocialCallbackUrl?.Value).toBe('https://api.example.com/auth/callback/social');
    expect(outputs().ApiDomainTarget).toBeDefined();
    const [[, createLink]] = resources(live.template, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('createlinkFunction')) as [[string, Resource]];
    expect(createLink.Properties.Environment.Variables.PUBLIC_BASE_URL).toBe('https://api.example.com');
  });

  it('names every key of the app-credentials secret in docs/going-live.md, and the subscription step', () => {
    const doc = readFileSync(new URL('../../docs/going-live.md', import.meta.url), 'utf8');
    for (const key of CREDENTIAL_KEYS) expect(doc).toContain(key);
    expect(doc).toContain('subscribe-platform-webhooks');
    for (const output of ['SocialPlatformWebhookUrl', 'ProfessionalPlatformWebhookUrl', 'AlarmTopicArn']) expect(doc).toContain(output);
  });
});
