import { groupRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { GroupsService } from './groups.service.js';

export function bindGroupRoutes(binder: Binder, groups: GroupsService): void {
  binder.bind(r.listGroups, async ({ params, query }, { caller }) =>
    groups.list({ operatorId: caller.operatorId, zoneId: params.zoneID }, query.page, query.pageSize),
  );
  binder.bind(r.metaGroups, async ({ params, query }, { caller }) => ({
    data: await groups.meta({ operatorId: caller.operatorId, zoneId: params.zoneID }, query),
  }));
  binder.bind(r.createGroup, async ({ params, body }, { caller }) => ({
    data: await groups.create({ operatorId: caller.operatorId, zoneId: params.zoneID }, body),
  }));
  binder.bind(r.updateGroup, async ({ params, body }, { caller }) => ({
    data: await groups.update({ operatorId: caller.operatorId, zoneId: params.zoneID }, body),
  }));
  binder.bind(r.deleteGroup, async ({ params, body }, { caller }) => {
    await groups.delete({ operatorId: caller.operatorId, zoneId: params.zoneID }, body.id);
  });
}
