import type { Context } from 'aws-lambda';
import type { Platform } from '../../../shared/core/errors.ts';
import type { ReportPage, ReportRequest } from '../../../shared/platforms/report-rows.ts';
import { accountCurrency as professionalCurrency } from '../../../shared/platforms/professional/account.ts';
import { checkReportingScope } from '../../../shared/platforms/professional/analytics.ts';
import { professionalReportPage } from '../../../shared/platforms/professional/report-rows.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { searchadsCampaignMetrics } from '../../../shared/platforms/searchads/campaign-metrics.ts';
import { searchadsSession } from '../../../shared/platforms/searchads/client.ts';
import { searchadsReportPage } from '../../../shared/platforms/searchads/report-rows.ts';
import { accountCurrency } from '../../../shared/platforms/social/account.ts';
import { socialReportPage } from '../../../shared/platforms/social/report-rows.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import type { User } from '../../../shared/store/users.ts';

/**
 * Where each platform's report pages come from (docs/reports.md): one platform call a page (plus, on
 * the professional network, the names of its demographic values, kept a day). `cursor` is the
 * platform's own cursor or ours, as the adapter issued it.
 */
export type ReportSource = (user: User, context: Context, request: ReportRequest, cursor?: string, pageRows?: number) => Promise<ReportPage>;

export const REPORT_SOURCES: Record<Platform, ReportSource> = {
  social: async (user, context, request, cursor) => {
    const session = socialSession(user, context);
    const page = await socialReportPage(session, session.connection.adAccountId, request, cursor);
    // a range without delivery has no row to name the account's currency
    return page.currency ? page : { ...page, currency: await accountCurrency(session, session.connection.adAccountId) };
  },
  searchads: async (user, context, request, cursor, pageRows) => {
    const session = searchadsSession(user, context);
    const page = await searchadsReportPage(session, request, cursor, pageRows);
    return { ...page, currency: (await searchadsCampaignMetrics.account(session)).currency };
  },
  professional: async (user, context, request, cursor, pageRows) => {
    const session = professionalSession(user, context);
    checkReportingScope(user.connections.professional?.grantedScopes);
    const page = await professionalReportPage(session, request, cursor, pageRows);
    return { ...page, currency: await professionalCurrency(session, session.adAccountId) };
  },
};
