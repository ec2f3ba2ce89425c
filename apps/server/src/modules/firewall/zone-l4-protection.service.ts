import type { ZoneL4Protection, ZoneL4ProtectionIn } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { ZoneRow, ZonesRepository } from '../zones/zones.repository.js';

function present(row: ZoneRow): ZoneL4Protection {
  return {
    synFlood: row.l4SynFlood ?? null,
    newConnections: row.l4NewConnections ?? null,
    kernelBlocks: row.l4KernelBlocks,
    escalation: row.l4Escalation ?? null,
  };
}

/**
 * A zone's layer-4 protection (routes/firewall-l4.ts zoneL4ProtectionRoutes): columns of the zone's
 * row, carried to its nodes by the snapshot's `l4.zone` (firewall-l4.edge.ts). A zone of another
 * operator answers 101018 like one that does not exist, as the zone's other settings.
 */
export class ZoneL4ProtectionService {
  constructor(private readonly zones: ZonesRepository) {}

  async get(operatorId: number, zoneId: number): Promise<ZoneL4Protection> {
    const row = await this.zones.find(operatorId, zoneId);
    if (!row) throw new AppError(101018);
    return present(row);
  }

  async set(operatorId: number, zoneId: number, input: ZoneL4ProtectionIn): Promise<ZoneL4Protection> {
    const changed = await this.zones.update(operatorId, zoneId, {
      l4SynFlood: input.synFlood,
      l4NewConnections: input.newConnections,
      l4KernelBlocks: input.kernelBlocks,
      l4Escalation: input.escalation,
    });
    if (!changed) throw new AppError(101018);
    return this.get(operatorId, zoneId);
  }
}
