import { config } from '../../../shared/core/config.ts';
import { takeFromWindow } from '../../../shared/store/rate-limits.ts';
import { Pause } from './job-run.ts';

/** Writes of the Data Manager API (audience members and conversion events share the quota): the service's share of the project's quota a minute, and each tenant's share of that. */
export async function throttleDataManager(tenantId: string): Promise<void> {
  const perMinute = config().DATA_MANAGER_WRITES_PER_MINUTE;
  const tenantWait = await takeFromWindow(tenantId, {
    name: 'datamanager-writes',
    limit: Math.max(1, Math.floor(perMinute * config().DATA_MANAGER_TENANT_SHARE)),
    windowSeconds: 60,
  });
  if (tenantWait !== undefined) throw new Pause(tenantWait);
  const serviceWait = await takeFromWindow('*', { name: 'datamanager-writes', limit: perMinute, windowSeconds: 60 });
  if (serviceWait !== undefined) throw new Pause(serviceWait);
}
