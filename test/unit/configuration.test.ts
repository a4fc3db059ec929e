import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/core/config.ts';

describe('the configuration read from the environment', () => {
  it('takes each variable’s default when it is unset, and the empty secrets as unset', () => {
    const config = parseConfig({ CONNECTION_ENCRYPTION_KEY: '' });
    expect(config).toMatchObject({
      TABLE_NAME: 'ad-campaign-api-main',
      S3_FORCE_PATH_STYLE: false,
      UPLOAD_MAX_BYTES: 1024 ** 3,
      RULES_QUOTA_SHARE: 0.2,
      JOB_LEASE_MS: 30_000,
      LOG_LEVEL: 'INFO',
      WEBHOOK_RETRY_DELAYS: [5, 300, 1800, 7200, 18000, 36000, 36000],
      PROFESSIONAL_API_VERSION: expect.stringMatching(/^\d{6}$/),
      OUTBOUND_ALLOWED_NETWORKS: { cidrs: [] },
    });
    expect(config.CONNECTION_ENCRYPTION_KEY).toBeUndefined();
  });

  it('reads numbers, flags and lists from their text', () => {
    const config = parseConfig({
      UPLOAD_MAX_BYTES: '1048576',
      DATA_MANAGER_TENANT_SHARE: '0.25',
      S3_FORCE_PATH_STYLE: 'true',
      WEBHOOK_RETRY_DELAYS: '5, 60',
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128',
    });
    expect(config).toMatchObject({
      UPLOAD_MAX_BYTES: 1_048_576,
      DATA_MANAGER_TENANT_SHARE: 0.25,
      S3_FORCE_PATH_STYLE: true,
      WEBHOOK_RETRY_DELAYS: [5, 60],
      OUTBOUND_ALLOWED_NETWORKS: { cidrs: ['127.0.0.0/8', '::1/128'] },
    });
  });

  it.each([
    ['JOB_LEASE_MS', '10', 'JOB_LEASE_MS: Too small: expected number to be >=1000'],
    ['JOB_LEASE_MS', '1500.5', 'JOB_LEASE_MS: Invalid input: expected int, received number'],
    ['UPLOAD_MAX_BYTES', String(6 * 1024 ** 3), 'UPLOAD_MAX_BYTES: Too big: expected number to be <=5368709120'],
    ['DATA_MANAGER_TENANT_SHARE', '0', 'DATA_MANAGER_TENANT_SHARE: Too small: expected number to be >0'],
    ['S3_FORCE_PATH_STYLE', 'yes', 'S3_FORCE_PATH_STYLE: Invalid option: expected one of "true"|"false"'],
    ['PUBLIC_BASE_URL', 'not a url', 'PUBLIC_BASE_URL: Invalid URL'],
    ['TABLE_NAME', '', 'TABLE_NAME: Too small: expected string to have >=1 characters'],
    ['WEBHOOK_RETRY_DELAYS', '5,x', 'WEBHOOK_RETRY_DELAYS.1: Invalid input: expected number, received NaN'],
    ['PROFESSIONAL_API_VERSION', '2026-01', 'PROFESSIONAL_API_VERSION: Invalid string: must match pattern'],
    ['OUTBOUND_ALLOWED_NETWORKS', 'nonsense', 'OUTBOUND_ALLOWED_NETWORKS: not a CIDR: nonsense'],
  ])('refuses %s=%j, saying which and why', (name, value, problem) => {
    expect(() => parseConfig({ [name]: value })).toThrow(`Invalid configuration: ${problem}`);
  });
});
