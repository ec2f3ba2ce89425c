import {
  type NginxTuning,
  type NginxTuningSection,
  NODE_ONLINE_WINDOW_SECONDS,
  RESERVED_NODE_PORTS,
  type ValidationKey,
  ZONE_PORTS_MAX_PER_TYPE,
  type ZoneNginx,
  type ZonePortIn,
  type ZonePortUpdateIn,
  type ZoneReservedPorts,
  type ZoneResource,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SitePortsRepository } from '../site-ports/site-ports.repository.js';
import type { ZonePortRow, ZoneSettingsRepository } from './zone-settings.repository.js';
import { presentPorts } from './zones.presenter.js';
import type { ZonesService } from './zones.service.js';

type FieldProblem = { field: string; key: ValidationKey; params?: Record<string, string | number> };

/**
 * Checks a zone's whole port list after a change: no port twice, none reserved (the zone's
 * reserved ports and the node's own), at most
 * ZONE_PORTS_MAX_PER_TYPE of a type (101029), at least one left. `fieldOf` names the request field
 * of a port that came from the request.
 */
function checkPorts(
  after: ZonePortIn[],
  fieldOf: (index: number) => string | null,
  sitePortNumbers: ReadonlySet<number>,
  reserved: ReadonlySet<number>,
): void {
  const problems: FieldProblem[] = [];
  // Layer-4 ports of sites served in the zone hold their numbers on its nodes too.
  const seen = new Set<number>(sitePortNumbers);
  after.forEach((p, i) => {
    const field = fieldOf(i);
    if (field === null) {
      seen.add(p.port);
      return;
    }
    if (reserved.has(p.port)) {
      problems.push({ field, key: 'portReserved', params: { port: p.port } });
    } else if (seen.has(p.port)) {
      problems.push({ field, key: 'portInUse', params: { port: p.port } });
    }
    seen.add(p.port);
  });
  if (problems.length > 0) throw invalidFields(problems);
  for (const type of ['http', 'https'] as const) {
    if (after.filter((p) => p.portType === type).length > ZONE_PORTS_MAX_PER_TYPE) {
      throw new AppError(101029, { extra: { portType: type, max: ZONE_PORTS_MAX_PER_TYPE } });
    }
  }
}

/**
 * A zone's listen ports and nginx settings. Every write here is a console call that changes state,
 * so the configuration generation moves on and the zone's nodes receive the change in their next
 * snapshot; each node renders nginx.conf, runs `nginx -t`, and keeps its running configuration
 * (reporting the error) when nginx refuses it.
 */
export class ZoneSettingsService {
  constructor(
    private readonly settings: ZoneSettingsRepository,
    private readonly sitePorts: SitePortsRepository,
    private readonly zones: ZonesService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** The zone's resource usage (contract's zoneResourceSchema), counted now. */
  async resource(operatorId: number, zoneId: number): Promise<ZoneResource> {
    await this.zones.settings(operatorId, zoneId);
    return this.settings.resource(zoneId, new Date(this.clock() - NODE_ONLINE_WINDOW_SECONDS * 1000));
  }

  async ports(operatorId: number, zoneId: number) {
    await this.zones.settings(operatorId, zoneId);
    return presentPorts(await this.settings.ports(zoneId));
  }

  /** Runs `change` on the zone's locked port list; a unique violation (a concurrent writer) is 101025. */
  private async changePorts(
    operatorId: number,
    zoneId: number,
    change: (current: ZonePortRow[], sitePortNumbers: Set<number>, reserved: Set<number>) => Promise<void>,
  ) {
    await this.zones.settings(operatorId, zoneId);
    await onUniqueViolation(101025, async () => {
      await this.transactions.run(async () => {
        await this.settings.lockOperatorPorts(operatorId);
        const current = await this.settings.portsForUpdate(zoneId);
        const reserved = new Set([...RESERVED_NODE_PORTS, ...(await this.settings.reservedPorts(zoneId))]);
        await change(current, await this.sitePorts.numbersInZone(zoneId), reserved);
      });
    });
    return this.ports(operatorId, zoneId);
  }

  addPorts(operatorId: number, zoneId: number, ports: ZonePortIn[]) {
    return this.changePorts(operatorId, zoneId, async (current, sitePortNumbers, reserved) => {
      const after = [...current, ...ports];
      checkPorts(
        after,
        (i) => (i < current.length ? null : `ports.${i - current.length}.port`),
        sitePortNumbers,
        reserved,
      );
      await this.settings.insertPorts(zoneId, ports);
    });
  }

  updatePort(operatorId: number, zoneId: number, input: ZonePortUpdateIn) {
    return this.changePorts(operatorId, zoneId, async (current, sitePortNumbers, reserved) => {
      if (!current.some((p) => p.id === input.id)) throw new AppError(101018);
      // The changed port is checked last, against all the others.
      const after = [...current.filter((p) => p.id !== input.id), input];
      checkPorts(after, (i) => (i === after.length - 1 ? 'port' : null), sitePortNumbers, reserved);
      await this.settings.updatePort(zoneId, input.id, { port: input.port, portType: input.portType });
    });
  }

  deletePorts(operatorId: number, zoneId: number, ids: number[]) {
    return this.changePorts(operatorId, zoneId, async (current) => {
      const unique = [...new Set(ids)];
      if (!unique.every((id) => current.some((p) => p.id === id))) throw new AppError(101018);
      if (current.length - unique.length < 1) throw invalidFields([{ field: 'ids', key: 'lastPort' }]);
      await this.settings.deletePorts(zoneId, unique);
    });
  }

  async reservedPorts(operatorId: number, zoneId: number): Promise<ZoneReservedPorts> {
    await this.zones.settings(operatorId, zoneId);
    const ports = await this.settings.reservedPorts(zoneId);
    return { ports, nodePorts: [...RESERVED_NODE_PORTS] };
  }

  /**
   * Replaces the zone's reserved list (sorted, each number once). A number newly reserved that a
   * listen port or a site's layer-4 port of the zone uses is refused (`portInUse`): the operator
   * moves that port first. A number already reserved stays whatever uses it (ports older than the
   * list), and the node's own ports are reserved always, so they are not stored.
   */
  async setReservedPorts(operatorId: number, zoneId: number, ports: number[]) {
    await this.zones.settings(operatorId, zoneId);
    await this.transactions.run(async () => {
      await this.settings.lockOperatorPorts(operatorId);
      const current = new Set(await this.settings.reservedPorts(zoneId, true));
      const used = await this.sitePorts.numbersInZone(zoneId);
      for (const p of await this.settings.ports(zoneId)) used.add(p.port);
      const problems: FieldProblem[] = [];
      ports.forEach((port, i) => {
        if (!current.has(port) && used.has(port))
          problems.push({ field: `ports.${i}`, key: 'portInUse', params: { port } });
      });
      if (problems.length > 0) throw invalidFields(problems);
      const node = new Set<number>(RESERVED_NODE_PORTS);
      const stored = [...new Set(ports)].filter((p) => !node.has(p)).sort((a, b) => a - b);
      await this.settings.setReservedPorts(operatorId, zoneId, stored);
    });
    return this.reservedPorts(operatorId, zoneId);
  }

  async nginx(operatorId: number, zoneId: number): Promise<ZoneNginx> {
    const row = await this.settings.nginx(operatorId, zoneId);
    if (!row) throw new AppError(101018);
    return { enable: row.enable, ...row.tuning };
  }

  async setNginxEnabled(operatorId: number, zoneId: number, enable: boolean): Promise<ZoneNginx> {
    await this.nginx(operatorId, zoneId);
    await this.settings.setNginxEnabled(operatorId, zoneId, enable);
    return this.nginx(operatorId, zoneId);
  }

  async section<S extends NginxTuningSection>(operatorId: number, zoneId: number, section: S): Promise<NginxTuning[S]> {
    return (await this.nginx(operatorId, zoneId))[section];
  }

  async setSection<S extends NginxTuningSection>(
    operatorId: number,
    zoneId: number,
    section: S,
    value: NginxTuning[S],
  ): Promise<NginxTuning[S]> {
    await this.nginx(operatorId, zoneId);
    await this.settings.setNginxSection(operatorId, zoneId, section, value);
    return this.section(operatorId, zoneId, section);
  }

  /** Back to the defaults: an empty section. */
  resetSection<S extends NginxTuningSection>(operatorId: number, zoneId: number, section: S): Promise<NginxTuning[S]> {
    const empty = (section === 'custom' ? [] : {}) as NginxTuning[S];
    return this.setSection(operatorId, zoneId, section, empty);
  }
}
