import { CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ApiMapping, DomainName } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, FilterCriteria, FilterRule, Function as LambdaFunctionResource, Runtime, StartingPosition, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { fallbackRoute, routes } from '../functions/routes.ts';
import { workers } from '../functions/workers/index.ts';
import { callbackUrl } from '../shared/platforms/connect-flow.ts';
import { grantsOf, type FunctionNeeds, type StreamSelection } from '../shared/core/function-declaration.ts';
import { encodeRouteTable } from '../shared/http/route-table.ts';
import { OPERATOR_METRICS, OPERATOR_METRICS_NAMESPACE } from '../shared/core/operator-alarms.ts';
import { queueDefinitions, schedules, type QueueId } from '../shared/core/queues.ts';
import { type FunctionBundles, nodeOptionsOf } from './bundling.ts';
import { areaOfRoute, type StackArea } from './stack-areas.ts';
import { idempotencyTable, mainTable, type TableDefinition } from '../shared/store/tables.ts';

/**
 * One environment of the service: the HTTP API (payload 2.0) with a route per operation from the
 * route table the local gateway serves, one function per operation bundled by esbuild, the tables
 * from the shared definitions, the upload bucket and the app-credentials secret, each function given
 * only what it uses.
 */
export interface AdCampaignApiStackProps extends StackProps {
  stage: string;
  /**
   * The API's public URL when it is served on a custom domain (connect links and the callback URLs
   * registered in each platform's app are built on it); the gateway's own endpoint otherwise.
   */
  publicBaseUrl?: string;
  /** a custom domain for the API, with the ACM certificate (same region) that covers it; publicBaseUrl defaults to https://<domainName> */
  customDomain?: { domainName: string; certificateArn: string };
  /** an address every alarm of the stage is mailed to (a subscription of the stage's alarm topic, confirmed by mail) */
  alarmEmail?: string;
  /** an existing SNS topic (an on-call tool's) that every alarm of the stage notifies as well */
  alarmTopicArn?: string;
  /** every function's bundle, built by one esbuild run before the stack (infra/bundle.ts) */
  bundles: FunctionBundles;
}

export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

export class AdCampaignApiStack extends Stack {
  readonly api: HttpApi;
  readonly functions = new Map<string, LambdaFunctionResource>();
  /** the nested stack of each area (infra/stack-areas.ts), holding its functions, their logs, alarms and routes */
  readonly areas = new Map<StackArea, NestedStack>();
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: AdCampaignApiStackProps) {
    super(scope, id, props);
    const production = props.stage !== 'dev';
    const removalPolicy = production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const dataKey = new Key(this, 'DataKey', {
      description: `ad-campaign-api ${props.stage}: tables, uploads and app credentials`,
      enableKeyRotation: true,
      removalPolicy,
    });

    // every alarm notifies one topic per stage (docs/going-live.md): a mail address or an on-call tool subscribes to it
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `ad-campaign-api ${props.stage} alarms`, masterKey: dataKey, enforceSSL: true });
    // CloudWatch publishes to the encrypted topic: it may use the key for that, and nothing else
    dataKey.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    if (props.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.alarmTopics = [this.alarmTopic, ...(props.alarmTopicArn ? [Topic.fromTopicArn(this, 'OperatorAlarmTopic', props.alarmTopicArn)] : [])];

    const table = (definition: TableDefinition) => {
      const created = new Table(this, `${definition.id}Table`, {
        partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
        ...(definition.sortKey ? { sortKey: { name: definition.sortKey, type: AttributeType.STRING } } : {}),
        ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
        ...(definition.streamsNewImages ? { stream: StreamViewType.NEW_IMAGE } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        encryption: TableEncryption.CUSTOMER_MANAGED,
        encryptionKey: dataKey,
        deletionProtection: production,
        removalPolicy,
      });
      for (const index of definition.indexes ?? [])
        created.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.NUMBER },
        });
      return created;
    };
    const main = table(mainTable);
    const idempotency = table(idempotencyTable);

    const uploads = new Bucket(this, 'UploadBucket', {
      encryption: BucketEncryption.KMS,
      encryptionKey: dataKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: false,
      lifecycleRules: [
        { id: 'expire-staged-uploads', prefix: 'uploads/', expiration: Duration.days(2), abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // a conversions job deletes its events when it ends; it may follow Google's request statuses for 72 hours first
        { id: 'expire-staged-conversions', prefix: 'conversions/', expiration: Duration.days(7) },
        // report exports: a link lasts 24 hours, the file 7 days
        { id: 'expire-report-exports', prefix: 'exports/', expiration: Duration.days(7) },
      ],
      // a client's web page may PUT a list straight to its presigned URL (create_upload); the signature, not the origin, is the permission
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['content-type'], maxAge: 3000 }],
      removalPolicy,
      autoDeleteObjects: !production,
    });
    NagSuppressions.addResourceSuppressions(uploads, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'Staging bucket for uploads that live at most two days; requests are traced per function, and a server-access-log bucket would hold the same keys longer than the data.',
      },
    ]);

    const credentials = new Secret(this, 'AppCredentials', {
      description:
        'App credentials (JSON): SOCIAL_APP_ID, SOCIAL_APP_SECRET, SOCIAL_WEBHOOK_VERIFY_TOKEN, SEARCHADS_CLIENT_ID, SEARCHADS_CLIENT_SECRET, SEARCHADS_DEVELOPER_TOKEN (optional), PROFESSIONAL_CLIENT_ID, PROFESSIONAL_CLIENT_SECRET; see docs/going-live.md',
      encryptionKey: dataKey,
      removalPolicy,
    });
    const connectionKey = new Secret(this, 'ConnectionKey', {
      description: 'Seals users’ platform tokens in the table (CONNECTION_ENCRYPTION_KEY)',
      encryptionKey: dataKey,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(connectionKey, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'Rotating this key would make the tokens sealed with it unreadable; rotation needs a re-sealing job, which is not built yet.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(credentials, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'Third-party OAuth client secrets and app secrets are rotated in the platforms’ consoles; there is no rotation Lambda for them.',
      },
    ]);

    // each queue with its dead-letter queue, and an alarm as soon as anything lands there
    const queues = new Map<QueueId, Queue>();
    const deadLetterQueues = new Map<QueueId, Queue>();
    for (const definition of queueDefinitions) {
      const deadLetters = new Queue(this, `${definition.id}DeadLetters`, {
        encryption: QueueEncryption.KMS,
        encryptionMasterKey: dataKey,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        removalPolicy,
      });
      NagSuppressions.addResourceSuppressions(deadLetters, [
        {
          id: 'AwsSolutions-SQS3',
          reason: 'This queue is itself the dead-letter queue of the queue beside it; its messages are alarmed on, not redriven automatically.',
        },
      ]);
      const queue = new Queue(this, `${definition.id}Queue`, {
        encryption: QueueEncryption.KMS,
        encryptionMasterKey: dataKey,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
        removalPolicy,
      });
      this.alarmAtLeast(
        this,
        `${definition.id}DeadLetterAlarm`,
        deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        1,
        `Messages of ${definition.id} reached its dead-letter queue`,
      );
      // a message waiting longer than two of its consumer's runs (a delayed continuation waits at most 15 minutes): the consumer is not keeping up
      this.alarmAtLeast(
        this,
        `${definition.id}BacklogAlarm`,
        queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5) }),
        Math.max(900, 2 * definition.consumerTimeoutSeconds),
        `Messages of ${definition.id} are waiting too long`,
      );
      queues.set(definition.id, queue);
      deadLetterQueues.set(definition.id, deadLetters);
    }
    const queueOf = (id: QueueId) => queues.get(id) as Queue;
    const queueDefinitionOf = (id: QueueId) => queueDefinitions.find((definition) => definition.id === id) as (typeof queueDefinitions)[number];

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `ad-campaign-api-${props.stage}`,
      description: 'Advertising campaign management API',
      createDefaultStage: true,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy });
    const stage = this.api.defaultStage?.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        requestTime: '$context.requestTime',
        routeKey: '$context.routeKey',
        status: '$context.status',
        responseLength: '$context.responseLength',
        latency: '$context.integrationLatency',
        error: '$context.integrationErrorMessage',
      }),
    };
    stage.defaultRouteSettings = { throttlingBurstLimit: production ? 200 : 50, throttlingRateLimit: production ? 100 : 20 };
    // the routes a browser follows while connecting need no API key: each gets its own, tighter limits
    // (RouteSettings is a free-form map, written as CloudFormation spells it)
    stage.routeSettings = Object.fromEntries(
      routes
        .filter((route) => route.browser)
        .map((route) => [`${route.method} ${route.path}`, { ThrottlingBurstLimit: route.browser?.burstLimit, ThrottlingRateLimit: route.browser?.rateLimit }]),
    );
    if (props.customDomain) {
      const domain = new DomainName(this, 'ApiDomain', {
        domainName: props.customDomain.domainName,
        certificate: Certificate.fromCertificateArn(this, 'ApiCertificate', props.customDomain.certificateArn),
      });
      new ApiMapping(this, 'ApiDomainMapping', { api: this.api, domainName: domain });
      new CfnOutput(this, 'ApiDomainTarget', {
        value: domain.regionalDomainName,
        description: `Point ${props.customDomain.domainName} here (a CNAME, or an alias record)`,
      });
    }
    const publicBaseUrl = (props.publicBaseUrl ?? (props.customDomain ? `https://${props.customDomain.domainName}` : this.api.apiEndpoint)).replace(/\/+$/, '');
    const areaStack = (area: StackArea) => {
      const existing = this.areas.get(area);
      if (existing) return existing;
      const created = new NestedStack(this, area, { description: `ad-campaign-api ${props.stage}: ${area}` });
      this.areas.set(area, created);
      return created;
    };

    const makeFunction = (
      scope: Construct,
      route: Partial<FunctionNeeds> &
        Pick<FunctionNeeds, 'operation' | 'entry'> & {
          public?: boolean;
          consumes?: QueueId;
          consumesDeadLettersOf?: QueueId;
          consumesStream?: StreamSelection;
        },
      extraEnvironment: Record<string, string> = {},
    ) => {
      const grants = grantsOf(route);
      const queueIds = [...grants.sendsTo, ...(route.consumes ? [route.consumes] : [])];
      const seals = grants.connectionKey;
      const logGroup = new LogGroup(scope, `${route.operation}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy });
      const fn = new LambdaFunctionResource(scope, `${route.operation}Function`, {
        // the folder one esbuild run built for every function (infra/bundling.ts): what the tests read is what deploys
        code: Code.fromAsset(props.bundles.folderOf(route.operation)),
        handler: 'index.handler',
        runtime: LAMBDA_RUNTIME,
        architecture: Architecture.ARM_64,
        memorySize: route.memoryMb ?? 256,
        timeout: Duration.seconds(route.timeoutSeconds ?? 15),
        tracing: Tracing.ACTIVE,
        logGroup,
        environment: {
          NODE_OPTIONS: nodeOptionsOf(route),
          ...(route.public ? {} : { TABLE_NAME: main.tableName, PUBLIC_BASE_URL: publicBaseUrl }),
          ...(route.idempotent ? { IDEMPOTENCY_TABLE_NAME: idempotency.tableName } : {}),
          ...(route.usesUploadBucket ? { UPLOAD_BUCKET: uploads.bucketName, UPLOAD_KMS_KEY_ID: dataKey.keyArn } : {}),
          ...(grants.appCredentials ? { APP_CREDENTIALS_SECRET_ARN: credentials.secretArn } : {}),
          ...(seals ? { CONNECTION_KEY_SECRET_ARN: connectionKey.secretArn } : {}),
          ...Object.fromEntries(queueIds.map((id) => [queueDefinitionOf(id).configKey, queueOf(id).queueUrl])),
          POWERTOOLS_SERVICE_NAME: 'ad-campaign-api',
          LOG_LEVEL: 'INFO',
          STAGE: props.stage,
          ...route.processEnvironment,
          ...extraEnvironment,
        },
      });
      // every operation looks up API keys and users; some also write; the published interface reads nothing
      if (!route.public) {
        const tableActions = [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          ...(grants.writes ? ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] : []),
          ...(grants.scans ? ['dynamodb:Scan'] : []),
        ];
        // the table and its indexes (the event flows' sweep queries the due index)
        fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: tableActions, resources: [main.tableArn, `${main.tableArn}/index/*`] }));
        dataKey.grantEncryptDecrypt(fn);
      }
      if (route.idempotent) {
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
            resources: [idempotency.tableArn],
          }),
        );
      }
      if (route.usesUploadBucket) {
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
            resources: [uploads.arnForObjects('uploads/*')],
          }),
        );
        // without it S3 answers a missing object 403, not 404: an upload never PUT would look like a fault
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['s3:ListBucket'],
            resources: [uploads.bucketArn],
            conditions: { StringLike: { 's3:prefix': ['uploads/*'] } },
          }),
        );
      }
      // a secret's read is granted on the role (identity), not in the key's policy: the key lives in the root stack,
      // the function in its area's nested stack, and a key policy naming the role would make the two depend on each other
      const readSecret = (secret: Secret) =>
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
            resources: [secret.secretArn],
          }),
        );
      if (grants.appCredentials || seals)
        fn.addToRolePolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['kms:Decrypt'],
            resources: [dataKey.keyArn],
            conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${this.region}.amazonaws.com` } },
          }),
        );
      if (grants.appCredentials) readSecret(credentials);
      for (const id of grants.sendsTo) queueOf(id).grantSendMessages(fn);
      // the event source grants receiving, deleting and ChangeMessageVisibility (the worker's retry delay)
      if (route.consumes)
        fn.addEventSource(
          new SqsEventSource(queueOf(route.consumes), { batchSize: queueDefinitionOf(route.consumes).batchSize, reportBatchItemFailures: true }),
        );
      if (route.consumesDeadLettersOf)
        fn.addEventSource(new SqsEventSource(deadLetterQueues.get(route.consumesDeadLettersOf) as Queue, { batchSize: 10, reportBatchItemFailures: true }));
      if (route.consumesStream) {
        const { flag } = route.consumesStream;
        fn.addEventSource(
          new DynamoEventSource(main, {
            startingPosition: StartingPosition.LATEST,
            batchSize: 10,
            reportBatchItemFailures: true,
            retryAttempts: 10,
            filters: [FilterCriteria.filter({ dynamodb: { NewImage: { [flag]: { BOOL: FilterRule.isEqual(true) } } } })],
          }),
        );
      }
      if (route.consumes || route.consumesDeadLettersOf || route.consumesStream)
        this.alarmAtLeast(scope, `${route.operation}Errors`, fn.metricErrors({ period: Duration.minutes(5) }), 1, `${route.operation} failed`);
      if (seals) readSecret(connectionKey);
      NagSuppressions.addResourceSuppressions(
        fn,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason: 'AWSLambdaBasicExecutionRole only lets the function write its own logs.',
            appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Wildcards are scoped: X-Ray trace segments have no resource ARN, KMS data-key actions (GenerateDataKey*, ReEncrypt*) are on the one data key, uploads/* is the staging prefix of the one bucket, and index/* the main table’s own indexes (the read actions only).',
          },
        ],
        true,
      );
      this.alarmAtLeast(scope, `${route.operation}Throttles`, fn.metricThrottles({ period: Duration.minutes(5) }), 1, `${route.operation} is being throttled`);
      this.functions.set(route.operation, fn);
      return fn;
    };

    for (const route of routes) {
      const scope = areaStack(areaOfRoute(route));
      const httpRoute = new HttpRoute(scope, `${route.operation}Route`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, route.method === 'GET' ? HttpMethod.GET : HttpMethod.POST),
        integration: new HttpLambdaIntegration(`${route.operation}Integration`, makeFunction(scope, route)),
      });
      NagSuppressions.addResourceSuppressions(httpRoute, [
        {
          id: 'AwsSolutions-APIG4',
          reason: route.public
            ? 'The API reference and its OpenAPI document are public by design; their functions read no table, bucket or secret.'
            : route.browser
              ? 'A person’s browser follows this connect route: it is bound to a one-time link or state and the browser’s cookie, not an API key, and throttled per route.'
              : route.inbound
                ? 'A platform calls this webhook route: it checks the platform’s HMAC signature over the raw body before anything else, and stores nothing otherwise.'
                : 'Every operation authenticates its x-api-key against hashed keys in DynamoDB in the function’s middleware.',
        },
      ]);
    }
    // unknown paths and methods get the service's 404/405 envelopes
    const connectAndTenant = areaStack('ConnectAndTenant');
    const defaultRoute = new HttpRoute(connectAndTenant, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('DefaultIntegration', makeFunction(connectAndTenant, fallbackRoute, { ROUTE_TABLE: encodeRouteTable(routes) })),
    });
    NagSuppressions.addResourceSuppressions(defaultRoute, [{ id: 'AwsSolutions-APIG4', reason: 'The catch-all route only answers 404 or 405 envelopes.' }]);

    const workerStack = areaStack('Workers');
    for (const worker of workers) {
      const fn = makeFunction(workerStack, worker);
      if (worker.schedule) {
        const schedule = schedules[worker.schedule];
        new Rule(workerStack, `${schedule.id}Rule`, { schedule: Schedule.rate(Duration.minutes(schedule.everyMinutes)), targets: [new LambdaFunction(fn)] });
      }
    }

    this.alarmAtLeast(this, 'Api5xx', this.api.metricServerError({ period: Duration.minutes(5) }), 5, 'The API answered 5xx responses');
    // what only an operator can mend, from any function (shared/core/operator-alarms.ts)
    const operatorMetric = (metricName: string) =>
      new Metric({ namespace: OPERATOR_METRICS_NAMESPACE, metricName, dimensionsMap: { stage: props.stage }, statistic: 'Sum', period: Duration.minutes(5) });
    for (const metricName of OPERATOR_METRICS)
      this.alarmAtLeast(
        this,
        `${metricName}Alarm`,
        operatorMetric(metricName),
        1,
        `${metricName}: a platform refuses the service's own app (docs/going-live.md)`,
      );
    this.dashboard(props.stage, [...deadLetterQueues.values()], [...queues.values()], operatorMetric);

    new CfnOutput(this, 'ApiUrl', { value: publicBaseUrl, description: 'The API: the base of every route, the MCP URL and the platform webhooks' });
    new CfnOutput(this, 'GatewayUrl', { value: this.api.apiEndpoint, description: 'The API Gateway endpoint itself' });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'Every alarm of the stage notifies this topic: subscribe the on-call',
    });
    // the URLs each platform's app must be given for its webhooks, and the MCP URL for agents, from the routes themselves
    for (const route of routes.filter((each) => each.inbound && each.method === 'POST'))
      new CfnOutput(this, `${route.inbound === 'social' ? 'Social' : 'Professional'}PlatformWebhookUrl`, {
        value: `${publicBaseUrl}${route.path}`,
        description: `The ${route.inbound} platform's lead webhooks (docs/going-live.md)`,
      });
    const mcp = routes.find((route) => route.path === '/mcp');
    if (mcp) new CfnOutput(this, 'McpUrl', { value: `${publicBaseUrl}${mcp.path}`, description: 'What an MCP client connects to' });
    new CfnOutput(this, 'TableName', { value: main.tableName, description: 'TABLE_NAME for `npm run admin` against this stage' });
    new CfnOutput(this, 'AppCredentialsSecretArn', { value: credentials.secretArn });
    // each platform's app must list its callback URL exactly (docs/platforms.md "What every connect round trip shares")
    for (const [id, platform] of [
      ['SocialCallbackUrl', 'social'],
      ['SearchadsCallbackUrl', 'searchads'],
      ['ProfessionalCallbackUrl', 'professional'],
    ] as const) {
      new CfnOutput(this, id, {
        value: callbackUrl(publicBaseUrl, platform),
        description: `Register in the ${platform} platform’s app as its OAuth redirect URI`,
      });
    }
  }

  /** Where every alarm of the stage goes: its own topic, and the operator's when context names one. */
  private alarmTopics: ITopic[] = [];

  /** An alarm when a five-minute metric reaches `threshold` (no data is not a breach); it notifies the stage's alarm topics, and again when it is over. */
  private alarmAtLeast(scope: Construct, id: string, metric: IMetric, threshold: number, description: string): Alarm {
    const alarm = new Alarm(scope, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    for (const topic of this.alarmTopics) {
      alarm.addAlarmAction(new SnsAction(topic));
      alarm.addOkAction(new SnsAction(topic));
    }
    return alarm;
  }

  /** One dashboard per stage: the API's traffic, errors and latency, the functions' errors and throttles, the queues, the operator's metrics. */
  private dashboard(stage: string, deadLetters: Queue[], queues: Queue[], operatorMetric: (name: string) => IMetric): void {
    const fiveMinutes = { period: Duration.minutes(5) };
    const lambdaSum = (metric: string, label: string) =>
      new MathExpression({
        expression: `SUM(SEARCH('{AWS/Lambda,FunctionName} MetricName="${metric}" "${this.stackName}"', 'Sum', 300))`,
        label,
        period: Duration.minutes(5),
      });
    new Dashboard(this, 'Dashboard', {
      dashboardName: `ad-campaign-api-${stage}`,
      widgets: [
        [
          new TextWidget({
            markdown: `# ad-campaign-api ${stage}\nEvery alarm notifies the stage's alarm topic (output AlarmTopicArn).`,
            width: 24,
            height: 2,
          }),
        ],
        [
          new GraphWidget({
            title: 'Requests and errors',
            left: [this.api.metricCount(fiveMinutes), this.api.metricClientError(fiveMinutes), this.api.metricServerError(fiveMinutes)],
            width: 12,
          }),
          new GraphWidget({
            title: 'Latency (p50, p99)',
            left: [this.api.metricLatency({ ...fiveMinutes, statistic: 'p50' }), this.api.metricLatency({ ...fiveMinutes, statistic: 'p99' })],
            width: 12,
          }),
        ],
        [
          new GraphWidget({ title: 'Function errors and throttles', left: [lambdaSum('Errors', 'errors'), lambdaSum('Throttles', 'throttles')], width: 12 }),
          new GraphWidget({
            title: 'Dead letters, and what the operator must mend',
            left: deadLetters.map((queue) => queue.metricApproximateNumberOfMessagesVisible(fiveMinutes)),
            right: OPERATOR_METRICS.map((name) => operatorMetric(name)),
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'Oldest message waiting (s)',
            left: queues.map((queue) => queue.metricApproximateAgeOfOldestMessage(fiveMinutes)),
            width: 24,
          }),
        ],
      ],
    });
  }
}
