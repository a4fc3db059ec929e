import { createHash } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import { DEMO_CONNECTIONS } from './demo-data.ts';

/**
 * Seeded demo data of the social sandbox: an ad account with 60 images, 7 videos and campaigns in
 * every status, a page linked to a photo-page account with 20 posts, and a location index.
 * Deterministic, so tests and the README can name what comes back.
 */
export const DEMO_AD_ACCOUNT = DEMO_CONNECTIONS.social.adAccountId;
export const DEMO_PAGE_ID = DEMO_CONNECTIONS.social.pageId;
/** A second Page the demo person manages: its lead forms and leads are the leads tests' own. */
export const SECOND_PAGE_ID = '104857392018466';
/** A third Page, no person's own: only the tests that share one Page between tenants subscribe it. */
export const THIRD_PAGE_ID = '104857392018467';
export const DEMO_PHOTO_ACCOUNT = '17841400000000001';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
export const cdn = (path: string, signature: string) => `https://scontent.xx.fbcdn.net/v/${path}?_nc_cat=101&ccb=1-7&oh=00_SANDBOX${signature}&oe=674A1B2C`;

export type Row = Record<string, unknown>;

/** A Graph-style timestamp `days` before the day the sandbox seeds its data, at `time` in `zone`. */
const daysAgo = (days: number, time: string, zone = '-0700') => `${clock.today(-days)}T${time}${zone}`;

const IMAGE_SIZES: Array<[number, number]> = [
  [1200, 628],
  [1080, 1080],
  [1080, 1920],
  [600, 600],
  [1920, 1080],
  [1200, 1500],
];

export function seedImages(accountId: string): Row[] {
  return Array.from({ length: 60 }, (_, index) => {
    const hash = md5(`${accountId}:image:${index}`);
    const [width, height] = IMAGE_SIZES[index % IMAGE_SIZES.length] as [number, number];
    return {
      id: `${accountId}:${hash}`,
      account_id: accountId,
      hash,
      name: `creative-${String(index + 1).padStart(2, '0')}.jpg`,
      url: cdn(`t45.1600-4/${hash}_n.jpg`, hash.slice(0, 8)),
      permalink_url: `https://www.facebook.com/ads/image/?d=${hash}`,
      width,
      height,
      original_width: width * 2,
      original_height: height * 2,
      status: 'ACTIVE',
      created_time: daysAgo(60 - (index % 28), '08:12:44'),
      updated_time: daysAgo(60 - (index % 28), '08:12:44'),
    };
  });
}

const FORMAT_BUCKETS: Array<[string, number]> = [
  ['130x130', 130],
  ['480x480', 480],
  ['720x720', 720],
  ['1080x1080', 1080],
];

export function seedVideos(pageId: string): Row[] {
  return Array.from({ length: 7 }, (_, index) => {
    const id = `12987654321098${String(70 + index)}`;
    const [nativeWidth, nativeHeight] = index % 2 === 0 ? [1920, 1080] : [1080, 1920];
    const buckets = FORMAT_BUCKETS.slice(0, 2 + (index % 3));
    const format = [...buckets, ['native', Math.max(nativeWidth, nativeHeight)] as [string, number]].map(([filter, size]) => {
      const scale = filter === 'native' ? 1 : size / Math.max(nativeWidth, nativeHeight);
      const width = Math.round(nativeWidth * scale);
      const height = Math.round(nativeHeight * scale);
      return {
        embed_html: `<iframe src="https://www.facebook.com/plugins/video.php?href=https%3A%2F%2Fwww.facebook.com%2F${pageId}%2Fvideos%2F${id}%2F&width=${width}" width="${width}" height="${height}" style="border:none;overflow:hidden" scrolling="no" frameborder="0" allowTransparency="true" allowFullScreen="true"></iframe>`,
        filter,
        width,
        height,
        picture: cdn(`t15.5256-10/${id}_${filter}.jpg`, `${id.slice(-4)}${filter}`),
      };
    });
    return {
      id,
      title: `Promo video ${index + 1}`,
      length: 15 + index * 5.5,
      picture: cdn(`t15.5256-10/${id}_thumb.jpg`, id.slice(-6)),
      format,
      created_time: daysAgo(100 - index, '12:00:00'),
    };
  });
}

export function seedPhotoMedia(): Row[] {
  const kinds: Array<{ media_type: string; media_product_type: string; path: string }> = [
    { media_type: 'IMAGE', media_product_type: 'FEED', path: 'p' },
    { media_type: 'CAROUSEL_ALBUM', media_product_type: 'FEED', path: 'p' },
    { media_type: 'VIDEO', media_product_type: 'REELS', path: 'reel' },
    { media_type: 'VIDEO', media_product_type: 'FEED', path: 'p' },
    { media_type: 'IMAGE', media_product_type: 'AD', path: 'p' },
  ];
  return Array.from({ length: 20 }, (_, index) => {
    const kind = kinds[index % kinds.length] as (typeof kinds)[number];
    const shortcode = `DSbx${String(index).padStart(4, '0')}`;
    const ineligible = index % 7 === 3;
    const media: Row = {
      id: `179880000000003${String(index).padStart(2, '0')}`,
      caption: `Post ${index + 1}: autumn collection #newin`,
      media_type: kind.media_type,
      media_url: `https://scontent.cdninstagram.com/v/t51.29350-15/${shortcode}.${kind.media_type === 'VIDEO' ? 'mp4' : 'jpg'}?oh=00_SANDBOX&oe=674C1A2B`,
      permalink: `https://www.instagram.com/${kind.path}/${shortcode}/`,
      timestamp: daysAgo(26 + index, '17:22:05', '+0000'),
      ig_id: `34688219477123456${String(index).padStart(2, '0')}`,
      boost_eligibility_info: ineligible
        ? { eligible_to_boost: false, boost_ineligible_reason: 'This reel can’t be boosted because it uses audio that isn’t available for ads.' }
        : { eligible_to_boost: true },
      media_product_type: kind.media_product_type,
      like_count: 10 + index,
      comments_count: index,
    };
    if (index === 7) delete media.media_url; // withheld: copyrighted audio
    if (index === 11) delete media.caption;
    return media;
  });
}

export function seedCampaigns(): Row[] {
  const statuses: Array<[string, string]> = [
    ['ACTIVE', 'ACTIVE'],
    ['ACTIVE', 'WITH_ISSUES'],
    ['ACTIVE', 'IN_PROCESS'],
    ['PAUSED', 'PAUSED'],
    ['ARCHIVED', 'ARCHIVED'],
    ['DELETED', 'DELETED'],
  ];
  const objectives = ['OUTCOME_LEADS', 'OUTCOME_TRAFFIC', 'OUTCOME_SALES', 'OUTCOME_AWARENESS', 'OUTCOME_ENGAGEMENT', 'LINK_CLICKS'];
  return Array.from({ length: 12 }, (_, index) => {
    const [status, effective] = statuses[index % statuses.length] as [string, string];
    const campaign: Row = {
      id: `1202109870000001${String(index).padStart(2, '0')}`,
      name: `Campaign ${index + 1} (${effective.toLowerCase()})`,
      objective: objectives[index % objectives.length],
      status,
      configured_status: status,
      effective_status: effective,
      buying_type: 'AUCTION',
      created_time: daysAgo(300 - 30 * (index % 9), '10:15:32'),
      updated_time: daysAgo(50, '10:15:32'),
    };
    if (index % 4 !== 2) campaign.daily_budget = String(2000 + index * 500);
    else campaign.lifetime_budget = '150000';
    if (effective === 'WITH_ISSUES') {
      campaign.issues_info = [
        {
          level: 'AD',
          error_code: 1815869,
          error_summary: 'Ad post is not available',
          error_message: 'The Facebook post associated with your ad is not available. It may have been removed, or you may not have permission to view it.',
          error_type: 'HARD_ERROR',
        },
      ];
    }
    return campaign;
  });
}

/** A small world of city-level locations; `type` shows the reclassified levels too. */
export function seedLocations(): Row[] {
  const rows: Array<[string, string, string, string, string, number, string?]> = [
    ['1051234', 'Dublin', 'IE', 'Ireland', 'Dublin', 1405],
    ['2418832', 'Dublin', 'US', 'United States', 'California', 3847],
    ['2479190', 'Dublin', 'US', 'United States', 'Ohio', 3878],
    ['1061842', 'Dubai', 'AE', 'United Arab Emirates', 'Dubai', 10],
    ['2444721', 'Dubuque', 'US', 'United States', 'Iowa', 3858],
    ['1012345', 'Dubbo', 'AU', 'Australia', 'New South Wales', 158],
    ['779802', 'Dubrovnik', 'HR', 'Croatia', 'Dubrovnik-Neretva County', 1022],
    ['2490299', 'New York', 'US', 'United States', 'New York', 3875],
    ['2421836', 'Los Angeles', 'US', 'United States', 'California', 3847],
    ['2420379', 'San Francisco', 'US', 'United States', 'California', 3847],
    ['2673660', 'Brooklyn', 'US', 'United States', 'New York', 3875, 'subcity'],
    ['2664201', 'Mission District', 'US', 'United States', 'California', 3847, 'neighborhood'],
    ['1600538', 'Paris', 'FR', 'France', 'Île-de-France', 1238],
    ['1598373', 'Lyon', 'FR', 'France', 'Auvergne-Rhône-Alpes', 1226],
    ['1600539', 'Montmartre', 'FR', 'France', 'Île-de-France', 1238, 'neighborhood'],
    ['544952', 'Berlin', 'DE', 'Germany', 'Berlin', 1004],
    ['546291', 'München', 'DE', 'Germany', 'Bavaria', 1003],
    ['1026155', 'Zürich', 'CH', 'Switzerland', 'Zurich', 4152],
    ['2142183', 'London', 'GB', 'United Kingdom', 'England', 4079],
    ['2145489', 'Manchester', 'GB', 'United Kingdom', 'England', 4079],
    ['2126463', 'Camden Town', 'GB', 'United Kingdom', 'England', 4079, 'subcity'],
    ['1549185', 'Madrid', 'ES', 'Spain', 'Community of Madrid', 1148],
    ['1545628', 'Barcelona', 'ES', 'Spain', 'Catalonia', 1144],
    ['224624', 'São Paulo', 'BR', 'Brazil', 'São Paulo (state)', 460],
    ['1819216', 'Tokyo', 'JP', 'Japan', 'Tokyo', 2111],
    ['1838524', 'Toronto', 'CA', 'Canada', 'Ontario', 535],
    ['1839093', 'Vancouver', 'CA', 'Canada', 'British Columbia', 528],
    ['1012894', 'Sydney', 'AU', 'Australia', 'New South Wales', 158],
    ['1013000', 'Melbourne', 'AU', 'Australia', 'Victoria', 161],
    ['2035114', 'Mumbai', 'IN', 'India', 'Maharashtra', 1738],
  ];
  return rows.map(([key, name, country_code, country_name, region, region_id, type]) => ({
    key,
    name,
    type: type ?? 'city',
    country_code,
    country_name,
    region,
    region_id,
    supports_region: true,
    supports_city: true,
    ...(type ? { geo_hierarchy_level: type.toUpperCase(), geo_hierarchy_name: type === 'subcity' ? 'BOROUGH' : 'NEIGHBORHOOD' } : {}),
  }));
}
