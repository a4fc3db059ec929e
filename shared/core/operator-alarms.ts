import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * What only an operator can mend (docs/going-live.md, "Alarms"): published as CloudWatch metrics in the
 * embedded metric format (Powertools Metrics), one namespace for the whole service with the stage as
 * dimension, so that one alarm per metric watches every function without a filter per log group.
 */
export const OPERATOR_METRICS_NAMESPACE = 'AdCampaignApi';
export const OPERATOR_METRICS = ['PlatformAccessNotApproved'] as const;
export type OperatorMetric = (typeof OPERATOR_METRICS)[number];

export function raiseOperatorAlarm(metric: OperatorMetric): void {
  const metrics = new Metrics({
    namespace: OPERATOR_METRICS_NAMESPACE,
    serviceName: 'ad-campaign-api',
    defaultDimensions: { stage: process.env.STAGE ?? 'local' },
  });
  metrics.addMetric(metric, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}
