import type { JobType } from '../../../shared/store/jobs.ts';
import { professionalAudienceJob } from '../audiences/professional-audience-job.ts';
import { searchadsAudienceJob } from '../audiences/searchads-audience-job.ts';
import { socialAudienceJob } from '../audiences/social-audience-job.ts';
import { conversionsJob } from '../conversions/conversions-job.ts';
import { reportExportJob } from '../reports/export-job.ts';
import { campaignLaunchJob } from '../launch/launch-job.ts';
import { leadsBackfillJob } from '../leads/backfill-job.ts';
import { adMediaJob } from '../media/video-job.ts';
import { ruleUndoJob } from '../rules/rule-undo-job.ts';
import type { JobKind } from './job-kind.ts';

/** Every kind of job, by type: the one list the engine, the dead-letter path and get_job read. A new kind is its module and a line here. */
export const JOB_KINDS: Record<JobType, JobKind> = {
  social_audience: socialAudienceJob,
  professional_audience: professionalAudienceJob,
  searchads_audience: searchadsAudienceJob,
  ad_media: adMediaJob,
  campaign_launch: campaignLaunchJob,
  leads_backfill: leadsBackfillJob,
  rule_undo: ruleUndoJob,
  conversions: conversionsJob,
  report_export: reportExportJob,
};
