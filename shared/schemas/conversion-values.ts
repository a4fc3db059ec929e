/**
 * The values of conversions that a read's request takes without their schemas (docs/deploying.md):
 * here, with no zod; conversions.ts builds the schemas on them.
 */

/** A CRM stage's name (docs/conversions.md). */
export const STAGE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** Where an event stands on one platform (docs/conversions.md, "Delivery"). */
export const CONVERSION_STATUSES = ['queued', 'delivered', 'rejected', 'unknown', 'skipped_expired', 'skipped_consent', 'skipped_no_identifier'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];
