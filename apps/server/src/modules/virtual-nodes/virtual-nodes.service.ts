import type {
  Locale,
  VirtualNode,
  VirtualNodeCreateIn,
  VirtualNodeRecord,
  VirtualNodeUpdateIn,
} from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { GroupLinesRepository } from '../group-lines/group-lines.repository.js';
import { NodeCapacity } from '../snapshots/node-capacity.js';
import type { ZonesRepository } from '../zones/zones.repository.js';
import { presentVirtualNode, presentVirtualNodeRecord } from './virtual-nodes.presenter.js';
import { VirtualNodesRepository } from './virtual-nodes.repository.js';

type Scope = { operatorId: number; zoneId: number };

/**
 * Virtual nodes of an operator's zone and their records. One of another operator, or of another
 * zone, answers 101018 like a missing one. Record changes lock the virtual node, so two calls
 * cannot together put a CNAME next to node records.
 */
export class VirtualNodesService {
  constructor(
    private readonly db: Db,
    private readonly zones: ZonesRepository,
    private readonly capacity: NodeCapacity = new NodeCapacity(),
  ) {}

  private repo(db: Db = this.db) {
    return new VirtualNodesRepository(db);
  }

  private async zone(s: Scope): Promise<void> {
    if (!(await this.zones.find(s.operatorId, s.zoneId))) throw new AppError(101018);
  }

  async list(s: Scope, value: string | undefined, page: number, pageSize: number) {
    await this.zone(s);
    const { rows, total } = await this.repo().list(s.operatorId, s.zoneId, value, page, pageSize);
    return { data: rows.map(presentVirtualNode), total };
  }

  async get(s: Scope, id: number, db: Db = this.db, lock = false): Promise<VirtualNode> {
    const row = await this.repo(db).find(s.operatorId, s.zoneId, id, lock);
    if (!row) throw new AppError(101018);
    return presentVirtualNode(row);
  }

  async create(s: Scope, input: VirtualNodeCreateIn): Promise<VirtualNode> {
    await this.zone(s);
    try {
      const id = await this.repo().insert({
        ownerId: s.operatorId,
        zoneId: s.zoneId,
        ...input,
        name: input.name.trim(),
      });
      return await this.get(s, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async update(s: Scope, input: VirtualNodeUpdateIn): Promise<VirtualNode> {
    try {
      const values = { name: input.name.trim(), memo: input.memo };
      if (!(await this.repo().update(s.operatorId, s.zoneId, input.id, values))) throw new AppError(101018);
      return await this.get(s, input.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  /** All or none; a virtual node still on a line is refused by its foreign key (206001). */
  async delete(s: Scope, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    try {
      await this.db.transaction(async (tx) => {
        const repo = this.repo(tx);
        if ((await repo.existing(s.operatorId, s.zoneId, unique)).length !== unique.length) {
          throw new AppError(101018);
        }
        await repo.delete(s.operatorId, s.zoneId, unique);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError(206001);
      throw error;
    }
  }

  async records(s: Scope, id: number, page: number, pageSize: number) {
    await this.get(s, id);
    const { rows, total } = await this.repo().records(id, page, pageSize);
    return { data: rows.map(presentVirtualNodeRecord), total };
  }

  /** A CNAME must be a name's only record (RFC 1034 §3.6.2): refused next to any other record. */
  async addCname(s: Scope, id: number, value: string, locale: Locale): Promise<VirtualNodeRecord> {
    const recordId = await this.db.transaction(async (tx) => {
      await this.get(s, id, tx, true);
      const repo = this.repo(tx);
      if ((await repo.recordTypes(id)).length > 0) throw invalidFields(locale, [{ field: 'value', key: 'cnameAlone' }]);
      return repo.insertCname(id, value);
    });
    const { rows } = await this.repo().records(id, 1, 1);
    const row = rows.find((r) => r.id === recordId);
    if (!row) throw new Error('record vanished after insert');
    return presentVirtualNodeRecord(row);
  }

  /** All or none: initialised nodes of the operator that serve the virtual node's port type. */
  async addNodeRecords(s: Scope, id: number, nodeIds: number[], locale: Locale): Promise<void> {
    const unique = [...new Set(nodeIds)];
    await this.db.transaction(async (tx) => {
      // The named nodes take the sites of the products using the virtual node's groups.
      const nodesStillFit = await this.capacity.before(tx, s.operatorId, { nodes: unique }, { nameNode: true });
      const virtualNode = await this.get(s, id, tx, true);
      const repo = this.repo(tx);
      if ((await repo.recordTypes(id)).includes('cname')) {
        throw invalidFields(locale, [{ field: 'nodeIDs', key: 'cnameAlone' }]);
      }
      if ((await repo.operatorNodes(s.operatorId, unique)).length !== unique.length) {
        throw new AppError(101018, { extra: { reason: 'every node must be an initialised node of yours' } });
      }
      const other = await new GroupLinesRepository(tx).servingOtherPortType(s.operatorId, unique, virtualNode.portType);
      if (other.length > 0) {
        throw invalidFields(locale, [{ field: 'nodeIDs', key: 'portTypeMismatch', params: { ids: other.join(', ') } }]);
      }
      await repo.insertNodeRecords(id, unique);
      await nodesStillFit();
    });
  }

  async deleteRecords(s: Scope, id: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      await this.get(s, id, tx, true);
      const repo = this.repo(tx);
      if ((await repo.recordIds(id, unique)).length !== unique.length) throw new AppError(101018);
      await repo.deleteRecords(id, unique);
    });
  }
}
