import { trafficRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { TrafficService } from './traffic.service.js';

export function bindTrafficRoutes(binder: Binder, service: TrafficService): void {
  const r = trafficRoutes;
  binder.bind(r.listClientTrafficPlans, async ({ query }, { caller }) => service.listPlans(caller.operatorId, query));
  binder.bind(r.createTrafficPlan, async ({ body }, { caller }) => ({
    data: await service.createPlan(caller.operatorId, body),
  }));
  binder.bind(r.updateTrafficPlan, async ({ body }, { caller }) => ({
    data: await service.updatePlan(caller.operatorId, body.id, body),
  }));
  binder.bind(r.deleteTrafficPlans, async ({ body }, { caller }) => {
    await service.deletePlans(caller.operatorId, body.ids);
  });
  binder.bind(r.listClientMonthlyUsages, async ({ query }, { caller }) =>
    service.monthlyUsages(caller.operatorId, query),
  );
  binder.bind(r.liftTrafficRestriction, async ({ body }, { caller }) => {
    await service.lift(caller.operatorId, body.ids);
  });
  binder.bind(r.listUserTrafficPlans, async ({ query }, { caller }) =>
    service.listPlansOfUser(caller.accountId, query),
  );
  binder.bind(r.listUserMonthlyUsages, async ({ query }, { caller }) =>
    service.monthlyUsagesOfUser(caller.accountId, query),
  );
}
