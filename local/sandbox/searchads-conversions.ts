import type { Account, Row } from './searchads-state.ts';

/**
 * GAQL `FROM conversion_action` for the search-ads sandbox (docs/conversions.md): the account's
 * conversion actions with the fields asked, filtered by `type` and `status` equalities as the query
 * states them, in searchStream's one-batch framing. Undefined: the query is not about conversion actions.
 */
const FIELD_OF: Record<string, string> = {
  resource_name: 'resourceName',
  id: 'id',
  name: 'name',
  status: 'status',
  type: 'type',
  category: 'category',
  click_through_lookback_window_days: 'clickThroughLookbackWindowDays',
  owner_customer: 'ownerCustomer',
  primary_for_goal: 'primaryForGoal',
};

export function conversionActionRows(query: string, account: Account): Row[] | undefined {
  if (!/\bFROM\s+conversion_action\b/i.test(query)) return undefined;
  const selected = (/^\s*SELECT\s+(.+?)\s+FROM\s/is.exec(query)?.[1] ?? '').split(',').map((field) => field.trim().replace(/^conversion_action\./, ''));
  const equals = [...query.matchAll(/conversion_action\.(\w+)\s*=\s*'([^']*)'/gi)].map((match) => [FIELD_OF[match[1] as string], match[2]] as const);
  const rows: Row[] = [];
  for (const [resourceName, resource] of account.resources) {
    if (resource.kind !== 'conversionActions') continue;
    const action: Row = { resourceName, id: resourceName.split('/').pop(), ...resource.data };
    if (equals.some(([field, value]) => field && String(action[field]) !== value)) continue;
    const shown: Row = { resourceName };
    for (const field of selected) {
      const key = FIELD_OF[field];
      if (key && action[key] !== undefined) shown[key] = action[key];
    }
    rows.push({ conversionAction: shown });
  }
  return rows;
}
