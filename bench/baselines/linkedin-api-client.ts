// Baseline: a one-line handler on the professional network's Node API client.
import { RestliClient } from 'linkedin-api-client';
export const handler = async () => new RestliClient();
