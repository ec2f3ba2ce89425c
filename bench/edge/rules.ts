/** bench:edge's rule sets: the firewall edge's site firewall and the rule mix added through the API. */
import {
  addBlacklistRules,
  addGeoRules,
  addSecondLimits,
  bindModuleRoutes,
  type EdgeFirewall,
  FIREWALL_ACTIONS,
  ipListRanges,
  wafRoutes,
} from '@rampart/contract';
import type { ApiSession } from '../../apps/edge/test/helpers/real-control-plane.js';

/** Addresses of each site's blacklist rule. */
const BLACKLIST_SIZE = 300;

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

/**
 * The firewall case's rules (see the top): wrk's address (127.0.0.1) is in the whitelist rule's
 * range, its method too, but not its URL; it is not among the blacklist's 1,000 addresses (none
 * next to another, so they stay 1,000 ranges); the last rule covers every address, for POST only;
 * a user-agent rule that wrk's requests do not match; a per-second limit that counts them all.
 */
export function benchFirewall(id: number): EdgeFirewall {
  const thousand = Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 7}.${(i & 127) * 2}`);
  return {
    id,
    whitelist: [
      {
        id: 1,
        url: 'https?:\\/\\/admin\\.bench\\.example(.*)',
        methods: ALL_METHODS,
        ...ipListRanges(['127.0.0.0/8']),
      },
    ],
    blacklist: [
      { id: 2, url: '.*', methods: ALL_METHODS, action: 'deny', ...ipListRanges([...thousand, '2001:db8::/32']) },
      { id: 3, url: '.*', methods: ['POST'], action: 'deny', ...ipListRanges(['0.0.0.0/0']) },
    ],
    // wrk's address (127.0.0.1) is in US in the bench's geo database: the black rule looks it up and
    // does not match, the white rule finds it listed; neither acts.
    geos: [
      { id: 7, url: '.*', white: false, countries: ['CN', 'RU'], cities: [], action: 'deny' },
      { id: 8, url: '.*', white: true, countries: ['US', 'CA', 'GB'], cities: [], action: 'deny' },
    ],
    // wrk sends no User-Agent: the rule is evaluated (against "") on every request and never matches.
    userAgents: [{ id: 4, url: '.*', userAgent: 'curl|python-requests|badbot', action: 'deny' }],
    // A header rule read on every request (wrk sends no X-Scanner: one variable read, never a match).
    headers: [{ id: 6, url: '.*', name: 'x-scanner', value: 'sqlmap|nikto', action: 'deny' }],
    intervals: [],
    // Counts every request of wrk's one address (a shared-dict `incr` each) and never acts: 100,000
    // requests per second with a burst of 1,000 is more than wrk sends, so none is delayed or refused
    // (a refused one would fail the run as a non-2xx answer).
    rates: [{ id: 5, url: '.*', rate: 100_000, burst: 1000, blockSeconds: 0, action: 'deny' }],
    antiCC: [],
  };
}

/** `route`'s path under /api/v1 for the site, as ApiSession.call takes it. */
function sitePath(route: { path: string }, siteId: number): string {
  return route.path.slice(1).replace('{siteId}', String(siteId));
}

/**
 * A site's rule mix (issue 25): a blacklist rule of BLACKLIST_SIZE addresses (none of them wrk's),
 * a black geo rule for two countries, a per-second limit above wrk's rate, and a WAF module (its
 * defaults) bound to every domain of the site. None decides a GET from 127.0.0.1 of a bench host.
 */
export async function addRuleMix(
  customer: ApiSession,
  siteId: number,
  k: number,
  domainIds: readonly number[],
  sites: number,
): Promise<void> {
  const ips = Array.from({ length: BLACKLIST_SIZE }, (_, i) => `10.${k & 255}.${(k >> 8) * 2 + (i >> 8)}.${i & 255}`);
  await customer.call('POST', sitePath(addBlacklistRules, siteId), {
    data: [{ ips, url: '.*', methods: { get: true, post: true }, blockType: FIREWALL_ACTIONS.deny, memo: 'bench' }],
  });
  await customer.call('POST', sitePath(addGeoRules, siteId), {
    data: [{ isBlack: true, geoIDs: ['CN', 'RU'], urlRegex: '.*', blockType: FIREWALL_ACTIONS.deny }],
  });
  await customer.call('POST', sitePath(addSecondLimits, siteId), {
    data: [{ urlRegex: '.*', rate: 100_000, burst: 100_000, blockType: FIREWALL_ACTIONS.deny }],
  });
  const [waf] = await customer.call<{ id: number }[]>('POST', sitePath(wafRoutes.create, siteId), {
    modules: [{ name: 'bench waf' }],
  });
  if (!waf) throw new Error(`site ${siteId}: no WAF module made`);
  const mine = domainIds.filter((_, i) => i % sites === k);
  for (let from = 0; from < mine.length; from += 500) {
    await customer.call('PUT', sitePath(bindModuleRoutes.waf, siteId), {
      domainIDs: mine.slice(from, from + 500),
      moduleID: waf.id,
    });
  }
}

/**
 * The flood's site firewall: the bench's, with wrk's address (127.0.0.1) added to its 1,000-address
 * blacklist rule (deny: the edge's "Access denied" page, 403). The whitelist rule still covers the
 * address and is checked first (its URL pattern does not match), as on a site that has one.
 */
export function floodFirewall(id: number): EdgeFirewall {
  const fw = benchFirewall(id);
  const [list, ...rest] = fw.blacklist;
  if (!list) throw new Error('the bench firewall has no blacklist rule');
  const thousand = Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 7}.${(i & 127) * 2}`);
  return {
    ...fw,
    blacklist: [{ ...list, ...ipListRanges([...thousand, '127.0.0.1', '2001:db8::/32']) }, ...rest],
  };
}
