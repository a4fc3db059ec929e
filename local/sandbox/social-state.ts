import type { CustomAudience } from './social-audiences.ts';
import type { CampaignWorld } from './social-campaigns.ts';
import { newSocialConnectState, type SocialConnectState } from './social-connect.ts';
import {
  DEMO_AD_ACCOUNT,
  DEMO_PAGE_ID,
  SECOND_PAGE_ID,
  THIRD_PAGE_ID,
  DEMO_PHOTO_ACCOUNT,
  seedCampaigns,
  seedImages,
  seedLocations,
  seedPhotoMedia,
  seedVideos,
  type Row,
} from './social-data.ts';
import type { ReportRun } from './social-insights.ts';
import { loadVideoState, type VideoState } from './social-videos.ts';
import type { GraphHandler } from './social-graph.ts';
import { type LeadsState, newLeadsState } from './social-leads.ts';
import { type DatasetState, seedDatasets } from './social-conversions.ts';

/** A route of the hub, on the whole state. */
export type SocialHandler = GraphHandler<SocialState>;

/** What the social sandbox holds: every object it made or was seeded with (the hub, social.ts, serves it). */
export interface SocialState {
  images: Map<string, Row[]>;
  videos: Map<string, Row[]>;
  campaigns: Map<string, Row[]>;
  pages: Map<string, { name: string; photoAccountId?: string }>;
  photoMedia: Map<string, Row[]>;
  locations: Row[];
  leadForms: Map<string, Row & { pageId: string }>;
  pageTokens: Map<string, string>;
  audiences: Map<string, CustomAudience>;
  /** when a user token runs out (epoch ms), fixed the first time the sandbox sees it */
  tokenExpiries: Map<string, number>;
  /** Facebook Login: codes, issued tokens and their people, revoked grants */
  connect: SocialConnectState;
  /** campaign control: the campaigns above, their accounts' currencies, their budget changes */
  world: CampaignWorld;
  /** asynchronous insights report runs, by id */
  reportRuns: Map<string, ReportRun>;
  /** resumable video uploads, the videos they made and how each account's videos process (kept in a folder) */
  videoUploads: VideoState;
  /** lead ads: the leads made, the Pages and the app subscribed to their webhooks */
  leads: LeadsState;
  /** the datasets CRM events can go to */
  datasets: DatasetState;
}

export function seedState(videosDir?: string): SocialState {
  const tokenExpiries = new Map<string, number>();
  const campaigns = new Map([[DEMO_AD_ACCOUNT, seedCampaigns()]]);
  return {
    world: {
      campaigns,
      accounts: new Map([[DEMO_AD_ACCOUNT, { currency: 'USD', timezone: 'America/Los_Angeles' }]]),
      budgetChanges: new Map(),
      objects: new Map(),
      nextId: 1,
    },
    reportRuns: new Map(),
    videoUploads: loadVideoState(videosDir),
    tokenExpiries,
    connect: newSocialConnectState(tokenExpiries),
    images: new Map([[DEMO_AD_ACCOUNT, seedImages(DEMO_AD_ACCOUNT)]]),
    videos: new Map([[DEMO_AD_ACCOUNT, seedVideos(DEMO_PAGE_ID)]]),
    campaigns,
    pages: new Map<string, { name: string; photoAccountId?: string }>([
      [DEMO_PAGE_ID, { name: 'Example Outfitters', photoAccountId: DEMO_PHOTO_ACCOUNT }],
      [SECOND_PAGE_ID, { name: 'Example Outfitters Leads' }],
      [THIRD_PAGE_ID, { name: 'Example Outfitters Offers' }],
    ]),
    photoMedia: new Map([[DEMO_PHOTO_ACCOUNT, seedPhotoMedia()]]),
    locations: seedLocations(),
    leadForms: new Map(),
    pageTokens: new Map(),
    audiences: new Map(),
    leads: newLeadsState(),
    datasets: seedDatasets(DEMO_AD_ACCOUNT),
  };
}
