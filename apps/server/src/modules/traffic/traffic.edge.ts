import { type EdgeSiteSettings, RATE_RULES_PER_SITE } from '@rampart/contract';

/**
 * The throttle of sites the traffic check restricted by throttling (docs/decisions.md "Traffic
 * packages"), laid over their edge settings as one more bandwidth rule for every path: the edge
 * already applies the lowest rate of the matching rules, so no new data-plane field and no reload.
 * The site's own rules slower than the throttle stay; the rest would never apply.
 */
export function withTrafficThrottle(
  settings: readonly EdgeSiteSettings[],
  throttled: ReadonlyMap<number, number>,
): EdgeSiteSettings[] {
  if (throttled.size === 0) return [...settings];
  const out = new Map(settings.map((entry) => [entry.id, entry]));
  for (const [siteId, kbps] of throttled) {
    const entry = out.get(siteId) ?? { id: siteId, gzip: null, rates: [], language: 'en_US', pages: [] };
    const slower = entry.rates.filter((rule) => rule.kbps < kbps).slice(0, RATE_RULES_PER_SITE - 1);
    out.set(siteId, { ...entry, rates: [...slower, { pattern: '*', kbps }] });
  }
  return [...out.values()].sort((a, b) => a.id - b.id);
}
