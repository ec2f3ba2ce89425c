import { DNS_LINES, type DnsLine, GROUP_PLACEMENT_LIMIT, type Locale } from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { NodeCapacity } from '../snapshots/node-capacity.js';
import { GroupLinesRepository, type PlaceKind } from './group-lines.repository.js';

type Scope = { operatorId: number; zoneId: number };
type Page = { page: number; pageSize: number };
/** The body field that carries the ids of each kind (where a field error points). */
const ID_FIELD = { nodes: 'nodeIDs', virtualNodes: 'virtualNodeIDs' } as const;

/** The catalogue in one language. */
export function dnsLines(locale: Locale): DnsLine[] {
  return DNS_LINES.map((line) => ({ id: line.id, name: line.name[locale] }));
}

/**
 * The one placement rule, for every call that puts nodes or virtual nodes in a group (the group
 * lines and `client/nodes/initialize`): each member serves the group's port type (101003
 * `portTypeMismatch` on `to.field` otherwise: a node's own port type, a group of the other type it
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
  to: { field: string; locale: Locale },
): Promise<void> {
  const wrongPortType =
    kind === 'nodes'
      ? await repo.servingOtherPortType(s.operatorId, unique, groupPortType)
      : (await repo.virtualNodesInZone(s.operatorId, s.zoneId, unique))
          .filter((v) => v.portType !== groupPortType)
          .map((v) => v.id);
  if (wrongPortType.length > 0) {
    throw invalidFields(to.locale, [
      { field: to.field, key: 'portTypeMismatch', params: { ids: wrongPortType.join(', ') } },
    ]);
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
    private readonly db: Db,
    private readonly capacity: NodeCapacity = new NodeCapacity(),
  ) {}

  private async group(repo: GroupLinesRepository, s: Scope, groupId: number, lock = true) {
    const group = await (lock ? repo.lockGroup : repo.findGroup).call(repo, s.operatorId, s.zoneId, groupId);
    if (!group) throw new AppError(101018);
    return group;
  }

  /** A read of the group's lines, after the group check (the operator's, in this zone). */
  private async read<T>(s: Scope, groupId: number, run: (repo: GroupLinesRepository, portType: 7 | 4) => Promise<T>) {
    const repo = new GroupLinesRepository(this.db);
    const group = await this.group(repo, s, groupId, false);
    return run(repo, group.portType);
  }

  async nodeNums(s: Scope, groupId: number) {
    return this.read(s, groupId, async (repo) => {
      const [n, v] = await Promise.all([
        repo.countsPerLine('nodes', groupId),
        repo.countsPerLine('virtualNodes', groupId),
      ]);
      const of = (rows: { line: string; n: number }[], line: string) => rows.find((r) => r.line === line)?.n ?? 0;
      return DNS_LINES.map(({ id }) => ({ line: id, nodeNum: of(n, id), virtualNodeNum: of(v, id) }));
    });
  }

  async lineNodes(s: Scope, groupId: number, line: string, page: Page) {
    const { rows, total } = await this.read(s, groupId, (repo) => repo.lineNodes(groupId, line, page));
    return { data: rows, total };
  }

  async lineVirtualNodes(s: Scope, groupId: number, line: string, page: Page) {
    const { rows, total } = await this.read(s, groupId, (repo) => repo.lineVirtualNodes(groupId, line, page));
    return { data: rows, total };
  }

  async nodeCandidates(s: Scope, groupId: number, line: string, value: string | undefined, page: Page) {
    const { rows, total } = await this.read(s, groupId, (repo, portType) =>
      repo.nodeCandidates({ ownerId: s.operatorId, zoneId: s.zoneId, groupId, line, portType }, value, page),
    );
    return { data: rows, total };
  }

  async virtualNodeCandidates(s: Scope, groupId: number, line: string, value: string | undefined, page: Page) {
    const { rows, total } = await this.read(s, groupId, (repo, portType) =>
      repo.virtualNodeCandidates({ ownerId: s.operatorId, zoneId: s.zoneId, groupId, line, portType }, value, page),
    );
    return { data: rows, total };
  }

  /** Places members of the zone on the line; each must serve the group's port type. */
  async add(kind: PlaceKind, s: Scope, groupId: number, line: string, ids: number[], locale: Locale): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      // The placed nodes take the sites of the products using the group.
      const loads = kind === 'nodes' ? { nodes: unique } : { virtualNodes: unique };
      const nodesStillFit = await this.capacity.before(tx, s.operatorId, loads, { nameNode: true });
      const repo = new GroupLinesRepository(tx);
      const group = await this.group(repo, s, groupId);
      if (kind === 'nodes') {
        const found = await repo.nodesInZone(s.operatorId, s.zoneId, unique);
        if (found.length !== unique.length) {
          throw new AppError(101018, { extra: { reason: 'every node must be an initialised node of this zone' } });
        }
      } else {
        const found = await repo.virtualNodesInZone(s.operatorId, s.zoneId, unique);
        if (found.length !== unique.length) {
          throw new AppError(101018, { extra: { reason: 'every virtual node must be of this zone' } });
        }
      }
      await placeOnLine(
        repo,
        kind,
        { operatorId: s.operatorId, zoneId: s.zoneId, groupId },
        group.portType,
        line,
        unique,
        {
          field: ID_FIELD[kind],
          locale,
        },
      );
      await nodesStillFit();
    });
  }

  async remove(kind: PlaceKind, s: Scope, groupId: number, line: string, ids: number[]): Promise<void> {
    await this.onLineThen(kind, s, groupId, line, ids, (repo, unique) => repo.remove(kind, groupId, line, unique));
  }

  /** Moves members from `line` to `toLine`; one already on `toLine` just leaves `line`. */
  async move(kind: PlaceKind, s: Scope, groupId: number, line: string, toLine: string, ids: number[]): Promise<void> {
    await this.onLineThen(kind, s, groupId, line, ids, async (repo, unique) => {
      if (toLine === line) return;
      await repo.remove(kind, groupId, line, unique);
      await repo.add(kind, groupId, toLine, unique);
    });
  }

  private async onLineThen(
    kind: PlaceKind,
    s: Scope,
    groupId: number,
    line: string,
    ids: number[],
    write: (repo: GroupLinesRepository, unique: number[]) => Promise<void>,
  ): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const repo = new GroupLinesRepository(tx);
      await this.group(repo, s, groupId);
      const placed = await repo.onLine(kind, groupId, line, unique);
      if (placed.length !== unique.length) {
        throw new AppError(101018, { extra: { reason: `every id must be on the line ${line}` } });
      }
      await write(repo, unique);
    });
  }
}
