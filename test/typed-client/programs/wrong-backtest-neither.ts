import createClient from 'openapi-fetch';
import type { paths } from '../.generated/api';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

// wrong: a backtest with neither a stored rule (ruleId) nor a rule to try (rule)
export const neither = api.POST('/optimize_me/backtest_rule', { body: { userId: 'u1', days: 7 } });
