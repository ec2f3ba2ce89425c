import type { EdgeDomainModules, EdgeWafModule, WafSensitivity } from '@rampart/contract';
import { WAF_GROUPS } from '@rampart/contract';
import { document, domain, upstream } from '../../apps/edge/test/helpers/documents.js';

/**
 * The data plane the WAF benches push: one domain `host` proxied to the origin on `originPort`, with
 * (`withWaf`) or without one WAF module in block mode, every group on, fail open, no exclusions.
 * The load bench (targets.ts) and the instruction count (callgrind.ts) measure the same edge.
 */
export function wafBenchDocument(
  version: string,
  host: string,
  originPort: number,
  withWaf: boolean,
  sensitivity: WafSensitivity = 'medium',
): ReturnType<typeof document> {
  const modules: EdgeDomainModules = {
    customHeader: null,
    urlRedirect: null,
    cors: null,
    proxyRewrite: null,
    luaAcl: null,
    tokenAuth: null,
    waf: withWaf ? 1 : null,
  };
  const module: EdgeWafModule = {
    id: 1,
    type: 'waf',
    siteId: 1,
    mode: 'block',
    groups: [...WAF_GROUPS],
    sensitivity,
    failMode: 'open',
    exclusions: [],
  };
  return document(version, [domain(1, host, [upstream(originPort)], { modules })], [], [], {
    modules: withWaf ? [module] : [],
  });
}
