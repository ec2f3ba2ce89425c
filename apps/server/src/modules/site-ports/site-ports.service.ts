import {
  type DomainUpstream,
  isOriginAddressAllowed,
  PORT_BATCH_MAX,
  type PortUpstreamIn,
  SITE_PORTS_MAX,
  type SitePort,
  type SitePortBatchIn,
  type SitePortIn,
  type SitePortUpdateIn,
  type SiteZonePort,
  UPSTREAMS_PER_DOMAIN_MAX,
  type ValidationKey,
} from '@rampart/contract';
import { onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import { NodeSockets } from '../nodes/node-sockets.js';
import type { NodeSocketsRepository } from '../nodes/node-sockets.repository.js';
import { presentPortUpstream, presentSitePort } from './site-ports.presenter.js';
import type { NewPortUpstream, PortFilter, SitePortRow, SitePortsRepository } from './site-ports.repository.js';

type FieldProblem = { field: string; key: ValidationKey; params?: Record<string, string | number> };

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
    private readonly transactions: Transactions,
    private readonly repo: SitePortsRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
    private readonly nodeSockets: NodeSocketsRepository,
    /** Whether the operator allows origins on private addresses (PrivateOriginsService.allowsFor). */
    private readonly allowPrivateOrigins: (operatorId: number) => Promise<boolean>,
    private readonly licenseLimits: LicenseLimits,
  ) {}

  /**
   * Refuses origins the operator does not allow (SSRF policy) and origins that are one of the
   * operator's node sockets (NodeSockets), naming each field once: a batch gives one upstream
   * field an entry per port it makes.
   */
  private async checkOrigins(
    operatorId: number,
    entries: { field: string; ip: string; port: number }[],
    newPorts: readonly number[] = [],
  ) {
    const sockets = NodeSockets.of(await this.nodeSockets.listening(operatorId), newPorts);
    const allowPrivate = await this.allowPrivateOrigins(operatorId);
    const bad: { field: string; key: 'originNotAllowed' | 'originIsNode' }[] = [];
    for (const e of entries) {
      if (bad.some((b) => b.field === e.field)) continue;
      if (!isOriginAddressAllowed(e.ip, allowPrivate)) bad.push({ field: e.field, key: 'originNotAllowed' });
      else if (sockets.isNodeSocket(e.ip, e.port)) bad.push({ field: e.field, key: 'originIsNode' });
    }
    if (bad.length > 0) throw invalidFields(bad);
  }

  /** `ownerId` is the site's operator: only its nodes' failures are shown. */
  private async present(ownerId: number, rows: SitePortRow[]): Promise<SitePort[]> {
    const ids = rows.map((r) => r.id);
    const [upstreams, failed] = await Promise.all([this.repo.upstreamsOf(ids), this.repo.failedNodesOf(ownerId, ids)]);
    return rows.map((row) => presentSitePort(row, upstreams, failed));
  }

  /** Runs `work` in a transaction; a unique violation (a number taken meanwhile) is 101025. */
  private async write<T>(work: () => Promise<T>): Promise<T> {
    return onUniqueViolation(101025, () => this.transactions.run(work));
  }

  async list(userId: number, siteId: number, q: PortFilter & { page: number; pageSize: number }) {
    const site = await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.list(siteId, q, q.page, q.pageSize);
    return { data: await this.present(site.ownerId, rows), total };
  }

  async zonePorts(userId: number, siteId: number): Promise<SiteZonePort[]> {
    await this.access.userSite(userId, siteId);
    return this.repo.zonePortsOfSite(siteId);
  }

  /**
   * Creates ports, all or none. `fieldOf(i)` names the request field of the i-th port's number in
   * a field error; `upstreamField(i, j)` the field of an upstream's IP.
   */
  private async create(
    userId: number,
    siteId: number,
    inputs: SitePortIn[],
    fieldOf: (i: number) => string,
    upstreamField: (i: number, j: number) => string,
  ): Promise<SitePort[]> {
    const site = await this.access.userSite(userId, siteId);
    if (site.productPortType !== 4) throw new AppError(101023, { extra: { productPortType: site.productPortType } });
    await this.checkOrigins(
      site.ownerId,
      inputs.flatMap((p, i) => p.upstreams.map((u, j) => ({ field: upstreamField(i, j), ip: u.ip, port: u.port }))),
      // The ports this request opens are the nodes' sockets too.
      inputs.map((p) => p.port),
    );
    const unservable = inputs.filter((p) => !servable(p.upstreams.map(toRow))).map((p) => p.port);
    if (unservable.length > 0) throw new AppError(401008, { extra: { targets: unservable.map(String) } });
    return this.write(async () => {
      await this.licenseLimits.check(site.ownerId, 'ports', inputs.length);
      await this.repo.lockPortNumbers(site.ownerId);
      const locked = await this.sites.lock(siteId);
      const current = await this.repo.countInSite(siteId);
      if (current + inputs.length > SITE_PORTS_MAX) throw new AppError(101029, { extra: { max: SITE_PORTS_MAX } });
      const maxPorts = locked?.maxPorts ?? 0;
      if (maxPorts > 0 && current + inputs.length > maxPorts) throw new AppError(401007, { extra: { max: maxPorts } });
      const taken = await this.repo.takenNumbers(site.ownerId, siteId);
      const reserved = await this.repo.reservedNumbers(siteId);
      const problems: FieldProblem[] = [];
      inputs.forEach((p, i) => {
        if (reserved.has(p.port)) problems.push({ field: fieldOf(i), key: 'portReserved', params: { port: p.port } });
        else if (taken.has(p.port)) problems.push({ field: fieldOf(i), key: 'portInUse', params: { port: p.port } });
        taken.add(p.port);
      });
      if (problems.length > 0) throw invalidFields(problems);
      const rows = await this.repo.insertPorts(
        siteId,
        inputs.map((p) => ({
          port: { port: p.port, protocol: p.protocol, hashType: p.hashType, enabled: p.status === 1, memo: p.memo },
          upstreams: p.upstreams.map(toRow),
        })),
      );
      return this.present(site.ownerId, rows);
    });
  }

  add(userId: number, siteId: number, inputs: SitePortIn[]) {
    return this.create(
      userId,
      siteId,
      inputs,
      (i) => `ports.${i}.port`,
      (i, j) => `ports.${i}.upstreams.${j}.ip`,
    );
  }

  /**
   * One port per number of the listen range, each to the same offset of the upstream range on
   * every upstream IP. Ranges of different lengths are 101011; a range backwards is a field error.
   */
  async batchCreate(userId: number, siteId: number, input: SitePortBatchIn) {
    const problems: FieldProblem[] = [];
    if (input.portTo < input.portFrom) problems.push({ field: 'portTo', key: 'invalidValue' });
    if (input.upstreamPortTo < input.upstreamPortFrom) problems.push({ field: 'upstreamPortTo', key: 'invalidValue' });
    if (problems.length > 0) throw invalidFields(problems);
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
      () => 'portFrom',
      (_i, j) => `upstreams.${j}.ip`,
    );
  }

  async update(userId: number, siteId: number, input: SitePortUpdateIn): Promise<SitePort> {
    const site = await this.access.userSite(userId, siteId);
    return this.write(async () => {
      await this.repo.lockPortNumbers(site.ownerId);
      const current = await this.repo.lockPort(siteId, input.id);
      if (!current) throw new AppError(101018);
      if (input.port !== current.port) {
        if ((await this.repo.reservedNumbers(siteId)).has(input.port))
          throw invalidFields([{ field: 'port', key: 'portReserved', params: { port: input.port } }]);
        if ((await this.repo.takenNumbers(site.ownerId, siteId, input.id)).has(input.port)) {
          throw invalidFields([{ field: 'port', key: 'portInUse', params: { port: input.port } }]);
        }
      }
      const row = await this.repo.updatePort(siteId, input.id, {
        port: input.port,
        ...(input.protocol !== undefined ? { protocol: input.protocol } : {}),
        ...(input.hashType !== undefined ? { hashType: input.hashType } : {}),
        ...(input.status !== undefined ? { enabled: input.status === 1 } : {}),
        ...(input.memo !== undefined ? { memo: input.memo } : {}),
      });
      if (!row) throw new AppError(101018);
      const [out] = await this.present(site.ownerId, [row]);
      return out as SitePort;
    });
  }

  /** All or none: an id that is not a port of this site refuses the whole call (101018). */
  async delete(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.deletePorts(siteId, unique), unique);
    });
  }

  /** Turns ports on or off, all or none. */
  async setEnabled(userId: number, siteId: number, ids: number[], enabled: boolean): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.setEnabled(siteId, unique, enabled), unique);
    });
  }

  async upstreams(userId: number, siteId: number, portId: number): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    if ((await this.repo.byIds(siteId, [portId])).length === 0) throw new AppError(101018);
    return (await this.repo.upstreamsOf([portId])).map(presentPortUpstream);
  }

  /**
   * Changes a port's upstreams under the port's lock, then checks what remains: at most 64
   * (101029) and one enabled upstream that is not a backup (401008).
   */
  private async changeUpstreams(
    userId: number,
    siteId: number,
    portId: number,
    change: () => Promise<void>,
  ): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      const port = await this.repo.lockPort(siteId, portId);
      if (!port) throw new AppError(101018);
      await change();
      const after = await this.repo.upstreamsOf([portId]);
      if (after.length > UPSTREAMS_PER_DOMAIN_MAX) {
        throw new AppError(101029, { extra: { max: UPSTREAMS_PER_DOMAIN_MAX } });
      }
      if (!servable(after)) throw new AppError(401008, { extra: { targets: [String(port.port)] } });
      await this.repo.touch(portId);
      return after.map(presentPortUpstream);
    });
  }

  async addUpstreams(userId: number, siteId: number, portId: number, list: PortUpstreamIn[]) {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      site.ownerId,
      list.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port })),
    );
    return this.changeUpstreams(userId, siteId, portId, () => this.repo.insertUpstreams(portId, list.map(toRow)));
  }

  deleteUpstreams(userId: number, siteId: number, portId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    return this.changeUpstreams(userId, siteId, portId, async () => {
      requireEvery(await this.repo.deleteUpstreams(portId, unique), unique);
    });
  }

  async updateUpstream(
    userId: number,
    siteId: number,
    portId: number,
    input: PortUpstreamIn & { id: number },
  ): Promise<DomainUpstream> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(site.ownerId, [{ field: 'ip', ip: input.ip, port: input.port }]);
    const after = await this.changeUpstreams(userId, siteId, portId, async () => {
      if ((await this.repo.updateUpstream(portId, input.id, toRow(input))) !== 1) throw new AppError(101018);
    });
    const changed = after.find((u) => u.id === input.id);
    if (!changed) throw new AppError(101018);
    return changed;
  }
}
