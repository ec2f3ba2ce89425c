import { GROUP_PLACEMENT_LIMIT, type LineCandidateQuery, type PageQuery } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { NodeCapacity } from '../snapshots/node-capacity.js';
import { presentLineCounts } from './group-lines.presenter.js';
import type { GroupLinesRepository, PlaceKind } from './group-lines.repository.js';

type Scope = { operatorId: number; zoneId: number };
/** The body field that carries the ids of each kind (where a field error points). */
const ID_FIELD = { nodes: 'nodeIDs', virtualNodes: 'virtualNodeIDs' } as const;

/**
 * The one placement rule, for every call that puts nodes or virtual nodes in a group (the group
 * lines and `client/nodes/initialize`): each member serves the group's port type (101003
 * `portTypeMismatch` on `field` otherwise: a node's own port type, a group of the other type it
 * sits in, or a virtual node's record naming it), and the group stays within
 * GROUP_PLACEMENT_LIMIT (203003). Runs in the caller's transaction with the group locked, after the
 * caller found every id among the operator's.
 */
export async function placeOnLine(
  repo: GroupLinesRepository,
  kind: PlaceKind,
  s: Scope & { groupId: number },
  groupPortType: 7 | 4,
  line: string,
  unique: number[],
  field: string,
): Promise<void> {
  const wrongPortType =
    kind === 'nodes'
      ? await repo.servingOtherPortType(s.operatorId, unique, groupPortType)
      : (await repo.virtualNodesInZone(s.operatorId, s.zoneId, unique))
          .filter((v) => v.portType !== groupPortType)
          .map((v) => v.id);
  if (wrongPortType.length > 0) {
    throw invalidFields([{ field, key: 'portTypeMismatch', params: { ids: wrongPortType.join(', ') } }]);
  }
  const already = await repo.onLine(kind, s.groupId, line, unique);
  const after = (await repo.placementCount(s.groupId)) + unique.length - already.length;
  if (after > GROUP_PLACEMENT_LIMIT) throw new AppError(203003, { extra: { limit: GROUP_PLACEMENT_LIMIT } });
  await repo.add(kind, s.groupId, line, unique);
}

/**
 * Nodes and virtual nodes on a group's lines. Every change runs in one transaction with the group
 * row locked: all ids are checked first (101018 for one that is not the operator's in this zone,
 * or not on the line it is taken from), then written, so a call does all or nothing.
 */
export class GroupLinesService {
  constructor(
    private readonly lines: GroupLinesRepository,
    private readonly transactions: Transactions,
    private readonly capacity: NodeCapacity,
  ) {}

  /** The operator's group in this zone (101018 otherwise), locked for the transaction when `lock`. */
  private async group(s: Scope, groupId: number, lock = true) {
    const group = lock
      ? await this.lines.lockGroup(s.operatorId, s.zoneId, groupId)
      : await this.lines.findGroup(s.operatorId, s.zoneId, groupId);
    if (!group) throw new AppError(101018);
    return group;
  }

  async nodeNums(operatorId: number, zoneId: number, groupId: number) {
    const s: Scope = { operatorId, zoneId };
    await this.group(s, groupId, false);
    const [n, v] = await Promise.all([
      this.lines.countsPerLine('nodes', groupId),
      this.lines.countsPerLine('virtualNodes', groupId),
    ]);
    return presentLineCounts(n, v);
  }

  async lineNodes(operatorId: number, zoneId: number, groupId: number, line: string, page: PageQuery) {
    const s: Scope = { operatorId, zoneId };
    await this.group(s, groupId, false);
    const { rows, total } = await this.lines.lineNodes(groupId, line, page);
    return { data: rows, total };
  }

  async lineVirtualNodes(operatorId: number, zoneId: number, groupId: number, line: string, page: PageQuery) {
    const s: Scope = { operatorId, zoneId };
    await this.group(s, groupId, false);
    const { rows, total } = await this.lines.lineVirtualNodes(groupId, line, page);
    return { data: rows, total };
  }

  async nodeCandidates(operatorId: number, zoneId: number, groupId: number, line: string, q: LineCandidateQuery) {
    const s: Scope = { operatorId, zoneId };
    const { portType } = await this.group(s, groupId, false);
    const where = { ownerId: s.operatorId, zoneId: s.zoneId, groupId, line, portType };
    const { rows, total } = await this.lines.nodeCandidates(where, q.value, q);
    return { data: rows, total };
  }

  async virtualNodeCandidates(
    operatorId: number,
    zoneId: number,
    groupId: number,
    line: string,
    q: LineCandidateQuery,
  ) {
    const s: Scope = { operatorId, zoneId };
    const { portType } = await this.group(s, groupId, false);
    const where = { ownerId: s.operatorId, zoneId: s.zoneId, groupId, line, portType };
    const { rows, total } = await this.lines.virtualNodeCandidates(where, q.value, q);
    return { data: rows, total };
  }

  /** Places members of the zone on the line; each must serve the group's port type. */
  async add(
    kind: PlaceKind,
    operatorId: number,
    zoneId: number,
    groupId: number,
    line: string,
    ids: number[],
  ): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      // The placed nodes take the sites of the products using the group.
      const loads = kind === 'nodes' ? { nodes: unique } : { virtualNodes: unique };
      const nodesStillFit = await this.capacity.before(s.operatorId, loads, { nameNode: true });
      const group = await this.group(s, groupId);
      if (kind === 'nodes') {
        const found = await this.lines.nodesInZone(s.operatorId, s.zoneId, unique);
        requireEvery(found, unique, 'every node must be an initialised node of this zone');
      } else {
        const found = await this.lines.virtualNodesInZone(s.operatorId, s.zoneId, unique);
        requireEvery(found, unique, 'every virtual node must be of this zone');
      }
      await placeOnLine(this.lines, kind, { ...s, groupId }, group.portType, line, unique, ID_FIELD[kind]);
      await nodesStillFit();
    });
  }

  async remove(
    kind: PlaceKind,
    operatorId: number,
    zoneId: number,
    groupId: number,
    line: string,
    ids: number[],
  ): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    await this.onLineThen(kind, s, groupId, line, ids, (unique) => this.lines.remove(kind, groupId, line, unique));
  }

  /** Moves members from `line` to `toLine`; one already on `toLine` just leaves `line`. */
  async move(
    kind: PlaceKind,
    operatorId: number,
    zoneId: number,
    groupId: number,
    line: string,
    toLine: string,
    ids: number[],
  ): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    await this.onLineThen(kind, s, groupId, line, ids, async (unique) => {
      if (toLine === line) return;
      await this.lines.remove(kind, groupId, line, unique);
      await this.lines.add(kind, groupId, toLine, unique);
    });
  }

  private async onLineThen(
    kind: PlaceKind,
    s: Scope,
    groupId: number,
    line: string,
    ids: number[],
    write: (unique: number[]) => Promise<void>,
  ): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.group(s, groupId);
      const placed = await this.lines.onLine(kind, groupId, line, unique);
      requireEvery(placed, unique, `every id must be on the line ${line}`);
      await write(unique);
    });
  }
}
