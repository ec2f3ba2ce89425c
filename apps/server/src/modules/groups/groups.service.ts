import type { Group, GroupIn, GroupMetaQuery, GroupUpdateIn } from '@rampart/contract';
import { onForeignKeyViolation, onUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ZonesRepository } from '../zones/zones.repository.js';
import { presentGroup } from './groups.presenter.js';
import type { GroupsRepository } from './groups.repository.js';

type Scope = { operatorId: number; zoneId: number };

/** Groups of an operator's zone. A group outside the caller's zone answers 101018, like a missing one. */
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly zones: ZonesRepository,
  ) {}

  /** The zone of the path must be the operator's (101018 otherwise, not an empty list). */
  private async zone(s: Scope): Promise<void> {
    if (!(await this.zones.find(s.operatorId, s.zoneId))) throw new AppError(101018);
  }

  async list(operatorId: number, zoneId: number, page: number, pageSize: number) {
    const s: Scope = { operatorId, zoneId };
    await this.zone(s);
    const { rows, total } = await this.groups.list(s.operatorId, s.zoneId, page, pageSize);
    return { data: rows.map(presentGroup), total };
  }

  async meta(operatorId: number, zoneId: number, filter: GroupMetaQuery) {
    const s: Scope = { operatorId, zoneId };
    await this.zone(s);
    return this.groups.meta(s.operatorId, s.zoneId, filter);
  }

  private async get(s: Scope, id: number): Promise<Group> {
    const row = await this.groups.find(s.operatorId, s.zoneId, id);
    if (!row) throw new AppError(101018);
    return presentGroup(row);
  }

  async create(operatorId: number, zoneId: number, input: GroupIn): Promise<Group> {
    const s: Scope = { operatorId, zoneId };
    // The zone comes from the path: without this check a group could be made in another operator's zone.
    await this.zone(s);
    return onUniqueViolation(101025, async () => {
      const id = await this.groups.insert({
        ownerId: s.operatorId,
        zoneId: s.zoneId,
        ...input,
        name: input.name.trim(),
      });
      return this.get(s, id);
    });
  }

  async update(operatorId: number, zoneId: number, input: GroupUpdateIn): Promise<Group> {
    const s: Scope = { operatorId, zoneId };
    return onUniqueViolation(101025, async () => {
      const { id, ...values } = input;
      if (!(await this.groups.update(s.operatorId, s.zoneId, id, { ...values, name: values.name.trim() }))) {
        throw new AppError(101018);
      }
      return this.get(s, id);
    });
  }

  async delete(operatorId: number, zoneId: number, id: number): Promise<void> {
    const s: Scope = { operatorId, zoneId };
    await onForeignKeyViolation(203001, async () => {
      if (!(await this.groups.delete(s.operatorId, s.zoneId, id))) throw new AppError(101018);
    });
  }
}
