import { childWeights, splitCount, splitMoney } from './report-splits.ts';
import type { SandboxResponse } from './server.ts';

/**
 * The professional sandbox's report pivots (docs/reports.md): `q=statistics&pivots=List(CAMPAIGN,CREATIVE)`
 * (each creative with its campaign, up to three entity pivots), `pivot=MEMBER_*` for one campaign or
 * creative, `timeGranularity=ALL`, and the standardized data that names the members' values. A
 * campaign's creatives (those a launch made, else two of its own) share its seeded daily figures, and
 * a demographic's values share each row's; as on the platform, a value with fewer than 3 impressions
 * is left out. Also `/rest/functions`, `/rest/seniorities`, the industries and `/rest/geo`.
 */
type Row = Record<string, unknown>;

export const MEMBER_VALUES: Record<string, Array<[string, number]>> = {
  MEMBER_COUNTRY_V2: [
    ['urn:li:geo:101282230', 6],
    ['urn:li:geo:105015875', 3],
    ['urn:li:geo:103644278', 1],
  ],
  MEMBER_REGION_V2: [
    ['urn:li:geo:100477049', 5],
    ['urn:li:geo:106967730', 4],
    ['urn:li:geo:90009790', 1],
  ],
  MEMBER_JOB_FUNCTION: [
    ['urn:li:function:8', 4],
    ['urn:li:function:10', 3],
    ['urn:li:function:15', 3],
  ],
  MEMBER_SENIORITY: [
    ['urn:li:seniority:4', 4],
    ['urn:li:seniority:5', 3],
    ['urn:li:seniority:6', 2],
    ['urn:li:seniority:7', 1],
  ],
  MEMBER_INDUSTRY: [
    ['urn:li:industry:4', 5],
    ['urn:li:industry:96', 3],
    ['urn:li:industry:43', 2],
  ],
  MEMBER_COMPANY_SIZE: [
    ['urn:li:staffCountRange:(11,50)', 3],
    ['urn:li:staffCountRange:(51,200)', 4],
    ['urn:li:staffCountRange:(1001,5000)', 3],
  ],
};

const NAMES: Record<string, Record<string, string>> = {
  functions: { '8': 'Engineering', '10': 'Finance', '15': 'Marketing' },
  seniorities: { '4': 'Senior', '5': 'Manager', '6': 'Director', '7': 'VP' },
  industries: { '4': 'Software Development', '96': 'IT Services and IT Consulting', '43': 'Financial Services' },
  geo: {
    '101282230': 'Germany',
    '105015875': 'France',
    '103644278': 'United States',
    '100477049': 'Bavaria',
    '106967730': 'Berlin',
    '90009790': 'Greater Munich Metropolitan Area',
  },
};

/** A day's (or the range's) figures of one campaign, split among its creatives; the sandbox's own figures are in `metrics`. */
export function splitElement(metrics: Row, weights: readonly number[]): Row[] {
  const counts = (name: string) => splitCount(Number(metrics[name] ?? 0), weights);
  const [impressions, clicks, conversions, leads] = [counts('impressions'), counts('clicks'), counts('externalWebsiteConversions'), counts('oneClickLeads')];
  const cost = splitMoney(String(Number(metrics.costInLocalCurrency ?? 0).toFixed(2)), weights, 2);
  return weights.map((_, index) => ({
    impressions: impressions[index],
    clicks: clicks[index],
    costInLocalCurrency: cost[index],
    externalWebsiteConversions: conversions[index],
    oneClickLeads: leads[index],
  }));
}

export const creativesWeights = childWeights;

/** Standardized data: GET_ALL of functions and seniorities, BATCH_GET of industries and geo. */
export function standardizedData(path: string, query: URLSearchParams, rawQuery: string): SandboxResponse | undefined {
  const localized = (kind: string, prefix: string) =>
    Object.entries(NAMES[kind] ?? {}).map(([id, name]) => ({ id: Number(id), $URN: `${prefix}${id}`, name: { localized: { en_US: name } } }));
  if (path === '/rest/functions')
    return { status: 200, body: { elements: localized('functions', 'urn:li:function:'), paging: { start: 0, count: 10, links: [] } } };
  if (path === '/rest/seniorities')
    return { status: 200, body: { elements: localized('seniorities', 'urn:li:seniority:'), paging: { start: 0, count: 10, links: [] } } };
  if (path === '/rest/industryTaxonomyVersions/DEFAULT/industries') {
    const ids = query.getAll('ids');
    const results = Object.fromEntries(
      ids.filter((id) => NAMES.industries?.[id]).map((id) => [id, { id: Number(id), name: { localized: { en_US: NAMES.industries?.[id] } } }]),
    );
    return { status: 200, body: { results, statuses: {}, errors: {} } };
  }
  if (path === '/rest/geo') {
    const ids = (/ids=List\(([^)]*)\)/.exec(rawQuery)?.[1] ?? '').split(',').filter(Boolean);
    const results = Object.fromEntries(
      ids
        .filter((id) => NAMES.geo?.[id])
        .map((id) => [id, { id: Number(id), defaultLocalizedName: { locale: { country: 'US', language: 'en' }, value: NAMES.geo?.[id] } }]),
    );
    return { status: 200, body: { results, statuses: {}, errors: {} } };
  }
  return undefined;
}
