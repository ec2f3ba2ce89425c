import type { VirtualNode, VirtualNodeCreateIn, VirtualNodeRecord, VirtualNodeUpdateIn } from '@rampart/contract';
import { onForeignKeyViolation, onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { GroupLinesRepository } from '../group-lines/group-lines.repository.js';
import type { NodeCapacity } from '../snapshots/node-capacity.js';
import type { ZonesRepository } from '../zones/zones.repository.js';
import { presentVirtualNode, presentVirtualNodeRecord } from './virtual-nodes.presenter.js';
import type { VirtualNodesRepository } from './virtual-nodes.repository.js';

type Scope = { operatorId: number; zoneId: number };

/**
 * Virtual nodes of an operator's zone and their records. One of another operator, or of another
 * zone, answers 101018 like a missing one. Record changes lock the virtual node, so two calls
 * cannot together put a CNAME next to node records.
 */
export class VirtualNodesService {
  constructor(
    private readonly repo: VirtualNodesRepository,
    private readonly zones: ZonesRepository,
    private readonly groupLines: GroupLinesRepository,
    private readonly capacity: NodeCapacity,
    private readonly transactions: Transactions,
  ) {}

  private async zone(s: Scope): Promise<void> {
    if (!(await this.zones.find(s.operatorId, s.zoneId))) throw new AppError(101018);
  }

  async list(operatorId: number, zoneId: number, value: string | undefined, page: number, pageSize: number) {
    const s: Scope = { operatorId, zoneId };
    await this.zone(s);
    const { rows, total } = await this.repo.list(s.operatorId, s.zoneId, value, page, pageSize);
    return { data: rows.map(presentVirtualNode), total };
  }

  /** The virtual node, locked until the transaction ends with `lock`; 101018 when it is not in the operator's zone. */
  private async get(s: Scope, id: number, lock = false): Promise<VirtualNode> {
    const row = await this.repo.find(s.operatorId, s.zoneId, id, lock);
    if (!row) throw new AppError(101018);
    return presentVirtualNode(row);
  }

  async create(operatorId: number, zoneId: number, input: VirtualNodeCreateIn): Promise<VirtualNode> {
    const s: Scope = { operatorId, zoneId };
    await this.zone(s);
    return onUniqueViolation(101025, async () => {
      const id = await this.repo.insert({
        ownerId: s.operatorId,
        zoneId: s.zoneId,
        ...input,
        name: input.name.trim(),
      });
      return this.get(s, id);
    });
  }

  async update(operatorId: number, zoneId: number, input: VirtualNodeUpdateIn): Promise<VirtualNode> {
    const s: Scope = { operatorId, zoneId };
    return onUniqueViolation(101025, async () => {
      const values = { name: input.name.trim(), memo: input.memo };
      if (!(await this.repo.update(s.operatorId, s.zoneId, input.id, values))) throw new AppError(101018);
      return this.get(s, input.id);
    });
  }

  /** All or none; a virtual node still on a line is refused by its foreign key (206001). */
  async delete(operatorId: number, zoneId: number, ids: number[]): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    const unique = [...new Set(ids)];
    await onForeignKeyViolation(206001, () =>
      this.transactions.run(async () => {
        requireEvery(await this.repo.existing(s.operatorId, s.zoneId, unique), unique);
        await this.repo.delete(s.operatorId, s.zoneId, unique);
      }),
    );
  }

  async records(operatorId: number, zoneId: number, id: number, page: number, pageSize: number) {
    const s: Scope = { operatorId, zoneId };
    await this.get(s, id);
    const { rows, total } = await this.repo.records(id, page, pageSize);
    return { data: rows.map(presentVirtualNodeRecord), total };
  }

  /** A CNAME must be a name's only record (RFC 1034 §3.6.2): refused next to any other record. */
  async addCname(operatorId: number, zoneId: number, id: number, value: string): Promise<VirtualNodeRecord> {
    const s: Scope = { operatorId, zoneId };
    const recordId = await this.transactions.run(async () => {
      await this.get(s, id, true);
      if ((await this.repo.recordTypes(id)).length > 0) throw invalidFields([{ field: 'value', key: 'cnameAlone' }]);
      return this.repo.insertCname(id, value);
    });
    const { rows } = await this.repo.records(id, 1, 1);
    const row = rows.find((r) => r.id === recordId);
    if (!row) throw new Error('record vanished after insert');
    return presentVirtualNodeRecord(row);
  }

  /** All or none: initialised nodes of the operator that serve the virtual node's port type. */
  async addNodeRecords(operatorId: number, zoneId: number, id: number, nodeIds: number[]): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    const unique = [...new Set(nodeIds)];
    await this.transactions.run(async () => {
      // The named nodes take the sites of the products using the virtual node's groups.
      const nodesStillFit = await this.capacity.before(s.operatorId, { nodes: unique }, { nameNode: true });
      const virtualNode = await this.get(s, id, true);
      if ((await this.repo.recordTypes(id)).includes('cname')) {
        throw invalidFields([{ field: 'nodeIDs', key: 'cnameAlone' }]);
      }
      requireEvery(
        await this.repo.operatorNodes(s.operatorId, unique),
        unique,
        'every node must be an initialised node of yours',
      );
      const other = await this.groupLines.servingOtherPortType(s.operatorId, unique, virtualNode.portType);
      if (other.length > 0) {
        throw invalidFields([{ field: 'nodeIDs', key: 'portTypeMismatch', params: { ids: other.join(', ') } }]);
      }
      await this.repo.insertNodeRecords(id, unique);
      await nodesStillFit();
    });
  }

  async deleteRecords(operatorId: number, zoneId: number, id: number, ids: number[]): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.get(s, id, true);
      requireEvery(await this.repo.recordIds(id, unique), unique);
      await this.repo.deleteRecords(id, unique);
    });
  }
}
