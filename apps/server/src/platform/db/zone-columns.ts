import { zones } from './schema.js';

/**
 * A zone's settings its nodes apply, listed once: the zone list (zones.repository.ts) and the
 * snapshot's read of each node with its zone (snapshot.repository.ts) select them alike.
 */
export const zoneEdgeColumns = {
  http2: zones.http2,
  forceSSLRedirectCode: zones.forceSSLRedirectCode,
  invalidDomainLimitCount: zones.invalidDomainLimitCount,
  tlsLimitCount: zones.tlsLimitCount,
  challengeWorkBits: zones.challengeWorkBits,
  trustedProxies: zones.trustedProxies,
  realIpHeader: zones.realIpHeader,
  proxyProtocol: zones.proxyProtocol,
  l4SynFlood: zones.l4SynFlood,
  l4NewConnections: zones.l4NewConnections,
  l4KernelBlocks: zones.l4KernelBlocks,
  l4Escalation: zones.l4Escalation,
};
