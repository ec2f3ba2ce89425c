import type { ZoneTrust, ZoneTrustIn } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { ZoneRow, ZonesRepository } from './zones.repository.js';

function present(row: ZoneRow): ZoneTrust {
  return { proxies: row.trustedProxies, header: row.realIpHeader, proxyProtocol: row.proxyProtocol };
}

/**
 * A zone's trust setting (routes/zone-trust.ts): the zone's row holds it and its nodes' snapshots
 * carry it (snapshot-builder.ts `realIp`), so a change reaches the nodes with their next snapshot.
 * A zone of another operator answers 101018 like one that does not exist.
 */
export class ZoneTrustService {
  constructor(private readonly zones: ZonesRepository) {}

  async get(operatorId: number, zoneId: number): Promise<ZoneTrust> {
    const row = await this.zones.find(operatorId, zoneId);
    if (!row) throw new AppError(101018);
    return present(row);
  }

  async set(operatorId: number, zoneId: number, input: ZoneTrustIn): Promise<ZoneTrust> {
    const changed = await this.zones.update(operatorId, zoneId, {
      trustedProxies: input.proxies,
      realIpHeader: input.header,
      proxyProtocol: input.proxyProtocol,
    });
    if (!changed) throw new AppError(101018);
    return this.get(operatorId, zoneId);
  }
}
