import type { EdgeSiteSettings, GzipType } from '@rampart/contract';
import type { SiteSettingsRepository } from './site-settings.repository.js';

/**
 * The edge's settings of the given sites: only those with something to do at the edge (compression
 * on, a rate limit, a page, or pages in another language than English), so a site without any
 * costs its domains nothing.
 */
export async function edgeSiteSettings(repo: SiteSettingsRepository, siteIds: number[]): Promise<EdgeSiteSettings[]> {
  if (siteIds.length === 0) return [];
  const [settings, rates, pages] = await Promise.all([
    repo.settingsOf(siteIds),
    repo.rateRulesOf(siteIds),
    repo.errorPagesOf(siteIds),
  ]);
  const out = new Map<number, EdgeSiteSettings>();
  const of = (siteId: number): EdgeSiteSettings => {
    let entry = out.get(siteId);
    if (!entry) {
      entry = { id: siteId, gzip: null, rates: [], language: 'en_US', pages: [] };
      out.set(siteId, entry);
    }
    return entry;
  };
  for (const row of settings) {
    if (row.gzipEnabled && row.gzipTypes.length > 0) {
      of(row.siteId).gzip = { types: row.gzipTypes as GzipType[], minLength: row.gzipMinLength };
    }
    if (row.errorPageLanguage !== 'en_US') of(row.siteId).language = row.errorPageLanguage;
  }
  for (const rule of rates) of(rule.siteId).rates.push({ pattern: rule.url, kbps: rule.rate });
  for (const page of pages) of(page.siteId).pages.push({ status: page.status, body: page.body });
  return [...out.values()].sort((a, b) => a.id - b.id);
}
