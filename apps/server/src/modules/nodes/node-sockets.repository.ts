import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { nodes, sitePorts, sites, zonePorts, zones } from '../../platform/db/schema.js';

/** Where an operator's nodes may listen, as stored (NodeSockets.of makes the comparable set). */
export interface NodeListening {
  /** Every address each node registered or reported. */
  ips: string[][];
  /** The listen ports of the operator's zones. */
  zonePorts: number[];
  /** The layer-4 ports of the operator's customers' sites. */
  sitePorts: number[];
}

/** The addresses and ports of an operator's nodes (NodeSockets' queries), scoped by owner. */
export class NodeSocketsRepository {
  constructor(private readonly db: Db) {}

  async listening(operatorId: number): Promise<NodeListening> {
    const [nodeRows, zonePortRows, sitePortRows] = await Promise.all([
      this.db.select({ ips: nodes.ips }).from(nodes).where(eq(nodes.ownerId, operatorId)),
      this.db
        .selectDistinct({ port: zonePorts.port })
        .from(zonePorts)
        .innerJoin(zones, eq(zones.id, zonePorts.zoneId))
        .where(eq(zones.ownerId, operatorId)),
      this.db
        .selectDistinct({ port: sitePorts.port })
        .from(sitePorts)
        .innerJoin(sites, eq(sites.id, sitePorts.siteId))
        .where(eq(sites.ownerId, operatorId)),
    ]);
    return {
      ips: nodeRows.map((n) => n.ips),
      zonePorts: zonePortRows.map((r) => r.port),
      sitePorts: sitePortRows.map((r) => r.port),
    };
  }
}
