import {
  type DomainUpstream,
  isOriginAddressAllowed,
  type Locale,
  PORT_BATCH_MAX,
  SITE_PORTS_MAX,
  type SitePort,
  type SiteZonePort,
  type StreamProtocol,
  UPSTREAMS_PER_DOMAIN_MAX,
  type ValidationKey,
} from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { NodeSockets } from '../nodes/node-sockets.js';
import type { SiteAccess } from '../sites/site-access.js';
import { SitesRepository } from '../sites/sites.repository.js';
import {
  type FailedNode,
  type NewPortUpstream,
  type PortFilter,
  type PortUpstreamRow,
  type SitePortRow,
  SitePortsRepository,
} from './site-ports.repository.js';

export interface PortUpstreamIn {
  ip: string;
  port: number;
  weight: number;
  backup: boolean;
  status: 0 | 1;
}
export interface SitePortIn {
  port: number;
  protocol: StreamProtocol;
  hashType: 0 | 1;
  status: 0 | 1;
  memo: string;
  upstreams: PortUpstreamIn[];
}
export interface SitePortUpdateIn {
  id: number;
  port: number;
  protocol?: StreamProtocol | undefined;
  hashType?: 0 | 1 | undefined;
  status?: 0 | 1 | undefined;
  memo?: string | undefined;
}
export interface SitePortBatchIn {
  portFrom: number;
  portTo: number;
  upstreamPortFrom: number;
  upstreamPortTo: number;
  protocol: StreamProtocol;
  hashType: 0 | 1;
  memo: string;
  upstreams: { ip: string; weight: number; backup: boolean }[];
}
type FieldProblem = { field: string; key: ValidationKey; params?: Record<string, string | number> };

function presentUpstream(u: PortUpstreamRow): DomainUpstream {
  return { id: u.id, ip: u.ip, port: u.port, weight: u.weight, backup: u.backup, status: u.enabled ? 1 : 0 };
}

function present(row: SitePortRow, upstreams: PortUpstreamRow[], failed: Map<number, FailedNode[]>): SitePort {
  return {
    id: row.id,
    siteID: row.siteId,
    port: row.port,
    protocol: row.protocol,
    hashType: row.hashType,
    status: row.enabled ? 1 : 0,
    memo: row.memo,
    upstreams: upstreams.filter((u) => u.portId === row.id).map(presentUpstream),
    failedNodes: failed.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toRow(u: PortUpstreamIn): NewPortUpstream {
  return { ip: u.ip.toLowerCase(), port: u.port, weight: u.weight, backup: u.backup, enabled: u.status === 1 };
}

/** A port sends traffic only to an enabled upstream that is not a backup (401008 otherwise). */
function servable(list: readonly { backup: boolean; enabled: boolean }[]): boolean {
  return list.some((u) => u.enabled && !u.backup);
}

/**
 * Layer-4 ports of a customer's site (packages/contract/src/routes/site-ports.ts has the rules).
 * Every write is one transaction, all or none; port numbers are checked under the operator's
 * advisory lock, so two writers cannot both take a number.
 */
export class SitePortsService {
  constructor(
    private readonly db: Db,
    private readonly access: SiteAccess,
    private readonly allowPrivateOrigins: boolean,
  ) {}

  /**
   * Refuses origins the installation does not allow (SSRF policy) and origins that are one of the
   * operator's node sockets (NodeSockets), naming each field.
   */
  private async checkOrigins(
    locale: Locale,
    operatorId: number,
    entries: { field: string; ip: string; port: number }[],
    newPorts: readonly number[] = [],
  ) {
    const sockets = await NodeSockets.ofOperator(this.db, operatorId, newPorts);
    const bad: { field: string; key: 'originNotAllowed' | 'originIsNode' }[] = [];
    for (const e of entries) {
      if (!isOriginAddressAllowed(e.ip, this.allowPrivateOrigins))
        bad.push({ field: e.field, key: 'originNotAllowed' });
      else if (sockets.isNodeSocket(e.ip, e.port)) bad.push({ field: e.field, key: 'originIsNode' });
    }
    if (bad.length > 0) throw invalidFields(locale, bad);
  }

  /** `ownerId` is the site's operator: only its nodes' failures are shown. */
  private async present(repo: SitePortsRepository, ownerId: number, rows: SitePortRow[]): Promise<SitePort[]> {
    const ids = rows.map((r) => r.id);
    const [upstreams, failed] = await Promise.all([repo.upstreamsOf(ids), repo.failedNodesOf(ownerId, ids)]);
    return rows.map((row) => present(row, upstreams, failed));
  }

  /** Runs `work` in a transaction; a unique violation (a number taken meanwhile) is 101025. */
  private async write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async list(userId: number, siteId: number, q: PortFilter & { page: number; pageSize: number }) {
    const site = await this.access.userSite(userId, siteId);
    const repo = new SitePortsRepository(this.db);
    const { rows, total } = await repo.list(siteId, q, q.page, q.pageSize);
    return { data: await this.present(repo, site.ownerId, rows), total };
  }

  async zonePorts(userId: number, siteId: number): Promise<SiteZonePort[]> {
    await this.access.userSite(userId, siteId);
    return new SitePortsRepository(this.db).zonePortsOfSite(siteId);
  }

  /**
   * Creates ports, all or none. `fieldOf(i)` names the request field of the i-th port's number in
   * a field error; `upstreamField(i, j)` the field of an upstream's IP.
   */
  private async create(
    userId: number,
    siteId: number,
    inputs: SitePortIn[],
    locale: Locale,
    fieldOf: (i: number) => string,
    upstreamField: (i: number, j: number) => string,
  ): Promise<SitePort[]> {
    const site = await this.access.userSite(userId, siteId);
    if (site.productPortType !== 4) throw new AppError(101023, { extra: { productPortType: site.productPortType } });
    await this.checkOrigins(
      locale,
      site.ownerId,
      inputs.flatMap((p, i) => p.upstreams.map((u, j) => ({ field: upstreamField(i, j), ip: u.ip, port: u.port }))),
      // The ports this request opens are the nodes' sockets too.
      inputs.map((p) => p.port),
    );
    const unservable = inputs.filter((p) => !servable(p.upstreams.map(toRow))).map((p) => p.port);
    if (unservable.length > 0) throw new AppError(401008, { extra: { targets: unservable.map(String) } });
    return this.write(async (tx) => {
      await SitePortsRepository.lockOperator(tx, site.ownerId);
      const locked = await new SitesRepository(tx).lock(siteId);
      const repo = new SitePortsRepository(tx);
      const current = await repo.countInSite(siteId);
      if (current + inputs.length > SITE_PORTS_MAX) throw new AppError(101029, { extra: { max: SITE_PORTS_MAX } });
      const maxPorts = locked?.maxPorts ?? 0;
      if (maxPorts > 0 && current + inputs.length > maxPorts) throw new AppError(401007, { extra: { max: maxPorts } });
      const taken = await repo.takenNumbers(site.ownerId, siteId);
      const reserved = await repo.reservedNumbers(siteId);
      const problems: FieldProblem[] = [];
      inputs.forEach((p, i) => {
        if (reserved.has(p.port)) problems.push({ field: fieldOf(i), key: 'portReserved', params: { port: p.port } });
        else if (taken.has(p.port)) problems.push({ field: fieldOf(i), key: 'portInUse', params: { port: p.port } });
        taken.add(p.port);
      });
      if (problems.length > 0) throw invalidFields(locale, problems);
      const rows = await repo.insertPorts(
        siteId,
        inputs.map((p) => ({
          port: { port: p.port, protocol: p.protocol, hashType: p.hashType, enabled: p.status === 1, memo: p.memo },
          upstreams: p.upstreams.map(toRow),
        })),
      );
      return this.present(repo, site.ownerId, rows);
    });
  }

  add(userId: number, siteId: number, inputs: SitePortIn[], locale: Locale) {
    return this.create(
      userId,
      siteId,
      inputs,
      locale,
      (i) => `ports.${i}.port`,
      (i, j) => `ports.${i}.upstreams.${j}.ip`,
    );
  }

  /**
   * One port per number of the listen range, each to the same offset of the upstream range on
   * every upstream IP. Ranges of different lengths are 101011; a range backwards is a field error.
   */
  async batchCreate(userId: number, siteId: number, input: SitePortBatchIn, locale: Locale) {
    const problems: FieldProblem[] = [];
    if (input.portTo < input.portFrom) problems.push({ field: 'portTo', key: 'invalidValue' });
    if (input.upstreamPortTo < input.upstreamPortFrom) problems.push({ field: 'upstreamPortTo', key: 'invalidValue' });
    if (problems.length > 0) throw invalidFields(locale, problems);
    const count = input.portTo - input.portFrom + 1;
    if (count !== input.upstreamPortTo - input.upstreamPortFrom + 1) {
      throw new AppError(101011, {
        extra: { ports: count, upstreamPorts: input.upstreamPortTo - input.upstreamPortFrom + 1 },
      });
    }
    if (count > PORT_BATCH_MAX) throw new AppError(101029, { extra: { max: PORT_BATCH_MAX } });
    const inputs: SitePortIn[] = Array.from({ length: count }, (_, offset) => ({
      port: input.portFrom + offset,
      protocol: input.protocol,
      hashType: input.hashType,
      status: 1,
      memo: input.memo,
      upstreams: input.upstreams.map((u) => ({ ...u, port: input.upstreamPortFrom + offset, status: 1 })),
    }));
    return this.create(
      userId,
      siteId,
      inputs,
      locale,
      () => 'portFrom',
      (_i, j) => `upstreams.${j}.ip`,
    );
  }

  async update(userId: number, siteId: number, input: SitePortUpdateIn, locale: Locale): Promise<SitePort> {
    const site = await this.access.userSite(userId, siteId);
    return this.write(async (tx) => {
      await SitePortsRepository.lockOperator(tx, site.ownerId);
      const repo = new SitePortsRepository(tx);
      const current = await repo.lockPort(siteId, input.id);
      if (!current) throw new AppError(101018);
      if (input.port !== current.port) {
        if ((await repo.reservedNumbers(siteId)).has(input.port))
          throw invalidFields(locale, [{ field: 'port', key: 'portReserved', params: { port: input.port } }]);
        if ((await repo.takenNumbers(site.ownerId, siteId, input.id)).has(input.port)) {
          throw invalidFields(locale, [{ field: 'port', key: 'portInUse', params: { port: input.port } }]);
        }
      }
      const row = await repo.updatePort(siteId, input.id, {
        port: input.port,
        ...(input.protocol !== undefined ? { protocol: input.protocol } : {}),
        ...(input.hashType !== undefined ? { hashType: input.hashType } : {}),
        ...(input.status !== undefined ? { enabled: input.status === 1 } : {}),
        ...(input.memo !== undefined ? { memo: input.memo } : {}),
      });
      if (!row) throw new AppError(101018);
      const [out] = await this.present(repo, site.ownerId, [row]);
      return out as SitePort;
    });
  }

  /** All or none: an id that is not a port of this site refuses the whole call (101018). */
  async delete(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      if ((await new SitePortsRepository(tx).deletePorts(siteId, unique)) !== unique.length) throw new AppError(101018);
    });
  }

  /** Turns ports on or off, all or none. */
  async setEnabled(userId: number, siteId: number, ids: number[], enabled: boolean): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      if ((await new SitePortsRepository(tx).setEnabled(siteId, unique, enabled)) !== unique.length) {
        throw new AppError(101018);
      }
    });
  }

  async upstreams(userId: number, siteId: number, portId: number): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    const repo = new SitePortsRepository(this.db);
    if ((await repo.byIds(siteId, [portId])).length === 0) throw new AppError(101018);
    return (await repo.upstreamsOf([portId])).map(presentUpstream);
  }

  /**
   * Changes a port's upstreams under the port's lock, then checks what remains: at most 64
   * (101029) and one enabled upstream that is not a backup (401008).
   */
  private async changeUpstreams(
    userId: number,
    siteId: number,
    portId: number,
    change: (repo: SitePortsRepository) => Promise<void>,
  ): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    return this.db.transaction(async (tx) => {
      const repo = new SitePortsRepository(tx);
      const port = await repo.lockPort(siteId, portId);
      if (!port) throw new AppError(101018);
      await change(repo);
      const after = await repo.upstreamsOf([portId]);
      if (after.length > UPSTREAMS_PER_DOMAIN_MAX) {
        throw new AppError(101029, { extra: { max: UPSTREAMS_PER_DOMAIN_MAX } });
      }
      if (!servable(after)) throw new AppError(401008, { extra: { targets: [String(port.port)] } });
      await repo.touch(portId);
      return after.map(presentUpstream);
    });
  }

  async addUpstreams(userId: number, siteId: number, portId: number, list: PortUpstreamIn[], locale: Locale) {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      list.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port })),
    );
    return this.changeUpstreams(userId, siteId, portId, (repo) => repo.insertUpstreams(portId, list.map(toRow)));
  }

  deleteUpstreams(userId: number, siteId: number, portId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    return this.changeUpstreams(userId, siteId, portId, async (repo) => {
      if ((await repo.deleteUpstreams(portId, unique)) !== unique.length) throw new AppError(101018);
    });
  }

  async updateUpstream(
    userId: number,
    siteId: number,
    portId: number,
    input: PortUpstreamIn & { id: number },
    locale: Locale,
  ): Promise<DomainUpstream> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(locale, site.ownerId, [{ field: 'ip', ip: input.ip, port: input.port }]);
    const after = await this.changeUpstreams(userId, siteId, portId, async (repo) => {
      if ((await repo.updateUpstream(portId, input.id, toRow(input))) !== 1) throw new AppError(101018);
    });
    const changed = after.find((u) => u.id === input.id);
    if (!changed) throw new AppError(101018);
    return changed;
  }
}
