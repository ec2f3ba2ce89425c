import type { Zone, ZonePort, ZoneSettings } from '@rampart/contract';
import type { ZonePortRow } from './zone-settings.repository.js';
import type { ZoneRow } from './zones.repository.js';

export function presentZone(row: ZoneRow): Zone {
  return {
    id: row.id,
    name: row.name,
    memo: row.memo,
    nodeCount: row.nodeCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentZoneSettings(
  row: Pick<
    ZoneRow,
    'http2' | 'forceSSLRedirectCode' | 'invalidDomainLimitCount' | 'tlsLimitCount' | 'challengeWorkBits'
  >,
): ZoneSettings {
  return {
    http2: row.http2,
    // Debian 12's nginx has no QUIC: the setting cannot be on.
    http3: false,
    forceSSLRedirectCode: row.forceSSLRedirectCode as ZoneSettings['forceSSLRedirectCode'],
    invalidDomainLimitCount: row.invalidDomainLimitCount,
    tlsLimitCount: row.tlsLimitCount,
    challengeWorkBits: row.challengeWorkBits,
  };
}

/** A zone's listen ports as the list reply (never paged: at most 16 of each type). */
export const presentPorts = (rows: ZonePortRow[]) => ({ data: rows satisfies ZonePort[], total: rows.length });
