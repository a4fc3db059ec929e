import type { FunctionDeclaration } from '../shared/core/function-declaration.ts';

/**
 * The nested stacks the service's functions are deployed in, by area (docs/deploying.md): no template
 * holds more than 300 of CloudFormation's 500 resources, and an area grows without touching the others.
 * The root stack keeps what every area shares (the key, the tables, the bucket, the secrets, the queues,
 * the HTTP API and its stage).
 */
export const STACK_AREAS = ['Operations', 'ConnectAndTenant', 'RunningCampaigns', 'Launching', 'Workers'] as const;
export type StackArea = (typeof STACK_AREAS)[number];

/** The CloudFormation limit this split keeps every template well under. */
export const MAX_RESOURCES_PER_TEMPLATE = 300;

const RUNNING =
  /\/(update_campaign_status|edit_campaign|get_campaign_insights|get_campaign_analytics|declare_eu_political_advertising)$|^\/optimize_me\/(create_rule|list_rules|update_rule|delete_rule|preview_rule|list_rule_runs|list_proposals|decide_proposal|undo_rule_run|backtest_rule)$/;
const LAUNCHING = /\/(create_campaign|upload_ad_media)$|^\/uploads\/|^\/jobs\//;
const CONNECT_AND_TENANT = /^\/(auth|connect|tenant|users|docs|mcp)(\/|$)|^\/openapi\.json$/;

/** The area of an operation's function, by its path (the catch-all route's with the connect routes). */
export function areaOfRoute(route: Pick<FunctionDeclaration, 'path'>): StackArea {
  if (RUNNING.test(route.path)) return 'RunningCampaigns';
  if (LAUNCHING.test(route.path)) return 'Launching';
  if (CONNECT_AND_TENANT.test(route.path)) return 'ConnectAndTenant';
  return 'Operations';
}
