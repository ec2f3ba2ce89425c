import { groupRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { GroupsService } from './groups.service.js';

export function bindGroupRoutes(binder: Binder, groups: GroupsService, nodes: NodesService): void {
  const scope = async (caller: Caller | null, zoneId: number) => {
    return { operatorId: await nodes.operatorOf(requireCaller(caller).accountId), zoneId };
  };
  const r = groupRoutes;
  binder.bind(r.listGroups, async ({ params, query }, { caller }) =>
    groups.list(await scope(caller, params.zoneID), query.page, query.pageSize),
  );
  binder.bind(r.metaGroups, async ({ params, query }, { caller }) => ({
    data: await groups.meta(await scope(caller, params.zoneID), query),
  }));
  binder.bind(r.createGroup, async ({ params, body }, { caller }) => ({
    data: await groups.create(await scope(caller, params.zoneID), body),
  }));
  binder.bind(r.updateGroup, async ({ params, body }, { caller }) => ({
    data: await groups.update(await scope(caller, params.zoneID), body),
  }));
  binder.bind(r.deleteGroup, async ({ params, body }, { caller }) => {
    await groups.delete(await scope(caller, params.zoneID), body.id);
    return { data: true as const };
  });
}
