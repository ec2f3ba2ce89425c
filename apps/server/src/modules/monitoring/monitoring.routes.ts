import { monitoringRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { MonitorStatusService } from './monitor-status.service.js';
import type { MonitoringService } from './monitoring.service.js';
import type { ProbesService } from './probes.service.js';

export function bindMonitoringRoutes(
  binder: Binder,
  monitoring: MonitoringService,
  status: MonitorStatusService,
  probes: ProbesService,
): void {
  binder.bind(r.listMonitorNodes, async ({ query }, { caller }) =>
    monitoring.listMonitors(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(r.metaMonitors, async (_i, { caller }) => ({
    data: await monitoring.metaMonitors(caller.operatorId),
  }));
  binder.bind(r.listMonitorCandidates, async ({ query }, { caller }) =>
    monitoring.candidates(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(r.createMonitorNode, async ({ body }, { caller }) => ({
    data: await monitoring.createMonitor(caller.operatorId, body),
  }));
  binder.bind(r.updateMonitorNode, async ({ body }, { caller }) => ({
    data: await monitoring.updateMonitor(caller.operatorId, body),
  }));
  binder.bind(r.deleteMonitorNode, async ({ body }, { caller }) => {
    await monitoring.deleteMonitor(caller.operatorId, body.id);
  });

  binder.bind(r.listMonitorGroups, async ({ query }, { caller }) =>
    monitoring.listGroups(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(r.metaMonitorGroups, async (_i, { caller }) => ({
    data: await monitoring.metaGroups(caller.operatorId),
  }));
  binder.bind(r.createMonitorGroup, async ({ body }, { caller }) => ({
    data: await monitoring.createGroup(caller.operatorId, body),
  }));
  binder.bind(r.updateMonitorGroup, async ({ body }, { caller }) => ({
    data: await monitoring.updateGroup(caller.operatorId, body),
  }));
  binder.bind(r.deleteMonitorGroup, async ({ body }, { caller }) => {
    await monitoring.deleteGroup(caller.operatorId, body.id);
  });
  binder.bind(r.listMonitorGroupNodes, async ({ params, query }, { caller }) => {
    const group = await monitoring.requireGroup(caller.operatorId, params.id);
    return status.groupTargets(group.id, query);
  });
  binder.bind(r.listNodesEnableStatus, async ({ query }, { caller }) => status.nodeStates(caller.operatorId, query));

  binder.bind(r.getProbes, async (_i, { node }) => ({ data: await probes.assignments(node.ownerId, node.nodeId) }));
  binder.bind(r.reportProbeResults, async ({ body }, { node }) => {
    await probes.report(node.ownerId, node.nodeId, body.results);
  });
}
