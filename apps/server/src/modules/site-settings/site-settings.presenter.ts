import {
  type ErrorPage,
  GZIP_DEFAULT_MIN_LENGTH,
  GZIP_DEFAULT_TYPES,
  type GzipSetting,
  type GzipType,
  type RateRule,
} from '@rampart/contract';
import type { ErrorPageRow, RateRuleRow, SiteSettingsRow } from './site-settings.repository.js';

export function presentGzip(row: SiteSettingsRow | undefined): GzipSetting {
  if (!row?.gzipUpdatedAt) {
    return { enabled: false, types: GZIP_DEFAULT_TYPES, minLength: GZIP_DEFAULT_MIN_LENGTH, updatedAt: null };
  }
  return {
    enabled: row.gzipEnabled,
    types: row.gzipTypes as GzipType[],
    minLength: row.gzipMinLength,
    updatedAt: row.gzipUpdatedAt.toISOString(),
  };
}

export function presentRate(row: RateRuleRow): RateRule {
  return {
    id: row.id,
    siteID: row.siteId,
    url: row.url,
    rate: row.rate,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const presentPage = (row: ErrorPageRow): ErrorPage => ({
  status: row.status,
  body: row.body,
  updatedAt: row.updatedAt.toISOString(),
});
