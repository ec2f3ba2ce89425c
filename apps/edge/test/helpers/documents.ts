import {
  type EdgeCacheRule,
  type EdgeDomainModules,
  type EdgeFirewall,
  type EdgeWafModule,
  noDomainModules,
  WAF_GROUPS,
} from '@rampart/contract';
import type { DataPlane, Domain, Upstream } from '../../src/data-plane/schema.js';

/** A site firewall with no rules but the given ones. */
export function siteFirewall(id: number, rules: Partial<EdgeFirewall>): EdgeFirewall {
  return {
    id,
    whitelist: [],
    blacklist: [],
    userAgents: [],
    headers: [],
    intervals: [],
    rates: [],
    antiCC: [],
    ...rules,
  };
}

/** A primary upstream on 127.0.0.1 (or the given address) with weight 1. */
export function upstream(port: number, extra: Partial<Upstream> = {}): Upstream {
  return { ip: '127.0.0.1', port, weight: 1, backup: false, ...extra };
}

/** An enabled HTTP domain proxying to `upstreams`; override any field. */
export function domain(
  id: number,
  name: string,
  upstreams: Upstream[],
  extra: Partial<Omit<Domain, 'origin'>> & { origin?: Partial<NonNullable<Domain['origin']>> } = {},
): Domain {
  const { origin, ...rest } = extra;
  return {
    id,
    name,
    enabled: true,
    forceSSL: false,
    forceSSLCode: 301,
    certificateId: null,
    cacheId: null,
    modules: null,
    settingsId: null,
    firewallId: null,
    ...rest,
    origin: { scheme: 'http', host: null, balance: 'round_robin', portMap: false, upstreams, ...origin },
  };
}

/** A disabled domain as the control plane sends it: no origin, modules or cache; override any field. */
export function disabledDomain(id: number, name: string, extra: Partial<Domain> = {}): Domain {
  return {
    id,
    name,
    enabled: false,
    forceSSL: false,
    forceSSLCode: 301,
    certificateId: null,
    cacheId: null,
    modules: null,
    settingsId: null,
    firewallId: null,
    origin: null,
    ...extra,
  };
}

export function document(
  version: string,
  domains: Domain[],
  certificates: DataPlane['certificates'] = [],
  caches: DataPlane['caches'] = [],
  extra: Partial<
    Pick<DataPlane, 'cacheEpoch' | 'modules' | 'settings' | 'firewalls' | 'limits' | 'challenge' | 'errorPages'>
  > = {},
): DataPlane {
  return {
    version,
    domains,
    certificates,
    caches,
    cacheEpoch: 0,
    modules: [],
    settings: [],
    firewalls: [],
    limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 21 },
    challenge: { keys: [], passSeconds: 1800 },
    ...extra,
  };
}

/** A cache rule for every path, an hour, with the query in the key and the origin's headers respected; override any field. */
export function cacheRule(extra: Partial<EdgeCacheRule>): EdgeCacheRule {
  return { scope: 'all', values: [], ttl: 3600, queryString: 'include', bypass: false, respectOrigin: true, ...extra };
}

/** A domain's module references: none but those given. */
export function moduleRefs(extra: Partial<NonNullable<EdgeDomainModules>>): EdgeDomainModules {
  return { ...noDomainModules(), ...extra };
}

/** A WAF module of site 1 blocking with every group at medium sensitivity, failing open; override any field. */
export function wafModule(id: number, extra: Partial<EdgeWafModule> = {}): EdgeWafModule {
  return {
    id,
    type: 'waf',
    siteId: 1,
    mode: 'block',
    groups: [...WAF_GROUPS],
    sensitivity: 'medium',
    failMode: 'open',
    exclusions: [],
    ...extra,
  };
}
