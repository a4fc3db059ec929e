import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AdCampaignApiStack } from './stack.ts';

/** `npx cdk synth -c stage=<name>`: one stack per environment. */
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`stage must be lower-case letters, digits and -, not ${stage}`);
new AdCampaignApiStack(app, `AdCampaignApi-${stage}`, {
  stage,
  description: `Advertising campaign management API (${stage})`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
