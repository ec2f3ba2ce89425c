import { groupRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { GroupsService } from './groups.service.js';

export function bindGroupRoutes(binder: Binder, groups: GroupsService): void {
  binder.bind(r.listGroups, async ({ params, query }, { caller }) =>
    groups.list(caller.operatorId, params.zoneID, query.page, query.pageSize),
  );
  binder.bind(r.metaGroups, async ({ params, query }, { caller }) => ({
    data: await groups.meta(caller.operatorId, params.zoneID, query),
  }));
  binder.bind(r.createGroup, async ({ params, body }, { caller }) => ({
    data: await groups.create(caller.operatorId, params.zoneID, body),
  }));
  binder.bind(r.updateGroup, async ({ params, body }, { caller }) => ({
    data: await groups.update(caller.operatorId, params.zoneID, body),
  }));
  binder.bind(r.deleteGroup, async ({ params, body }, { caller }) => {
    await groups.delete(caller.operatorId, params.zoneID, body.id);
  });
}
