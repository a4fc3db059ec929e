import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { bundleDeployedFunctions } from './bundle.ts';
import { AdCampaignApiStack } from './stack.ts';

/** `npx cdk synth -c stage=<name>`: one stack per environment. */
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`stage must be lower-case letters, digits and -, not ${stage}`);
/** Going live (docs/going-live.md): every setting a stage needs is context, never an edit of the code. */
const context = (name: string): string | undefined => {
  const value = app.node.tryGetContext(name);
  return value === undefined || value === '' ? undefined : String(value);
};
const domainName = context('domainName');
const certificateArn = context('certificateArn');
if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('domainName and certificateArn go together: a custom domain needs its certificate');
const publicBaseUrl = context('publicBaseUrl');
if (publicBaseUrl && !/^https:\/\/[^/]+$/.test(publicBaseUrl.replace(/\/+$/, ''))) throw new Error(`publicBaseUrl must be https://host, not ${publicBaseUrl}`);
// every function bundled by one esbuild run, then deployed as built (infra/bundling.ts)
const bundles = await bundleDeployedFunctions();
new AdCampaignApiStack(app, `AdCampaignApi-${stage}`, {
  stage,
  bundles,
  ...(publicBaseUrl ? { publicBaseUrl } : {}),
  ...(domainName && certificateArn ? { customDomain: { domainName, certificateArn } } : {}),
  ...(context('alarmEmail') ? { alarmEmail: context('alarmEmail') } : {}),
  ...(context('alarmTopicArn') ? { alarmTopicArn: context('alarmTopicArn') } : {}),
  description: `Advertising campaign management API (${stage})`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
