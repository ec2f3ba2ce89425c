import { monitoringRoutes as r } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { MonitorStatusService } from './monitor-status.service.js';
import type { MonitoringService } from './monitoring.service.js';
import type { ProbesService } from './probes.service.js';

export function bindMonitoringRoutes(
  binder: Binder,
  monitoring: MonitoringService,
  status: MonitorStatusService,
  probes: ProbesService,
  nodes: NodesService,
): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);

  binder.bind(r.listMonitorNodes, async ({ query }, { caller }) =>
    monitoring.listMonitors(await operator(caller), query.page, query.pageSize),
  );
  binder.bind(r.metaMonitors, async (_i, { caller }) => ({
    data: await monitoring.metaMonitors(await operator(caller)),
  }));
  binder.bind(r.listMonitorCandidates, async ({ query }, { caller }) =>
    monitoring.candidates(await operator(caller), query.page, query.pageSize),
  );
  binder.bind(r.createMonitorNode, async ({ body }, { caller }) => ({
    data: await monitoring.createMonitor(await operator(caller), body),
  }));
  binder.bind(r.updateMonitorNode, async ({ body }, { caller }) => ({
    data: await monitoring.updateMonitor(await operator(caller), body),
  }));
  binder.bind(r.deleteMonitorNode, async ({ body }, { caller }) => {
    await monitoring.deleteMonitor(await operator(caller), body.id);
    return { data: true as const };
  });

  binder.bind(r.listMonitorGroups, async ({ query }, { caller }) =>
    monitoring.listGroups(await operator(caller), query.page, query.pageSize),
  );
  binder.bind(r.metaMonitorGroups, async (_i, { caller }) => ({
    data: await monitoring.metaGroups(await operator(caller)),
  }));
  binder.bind(r.createMonitorGroup, async ({ body }, { caller, request }) => ({
    data: await monitoring.createGroup(await operator(caller), body, requestLocale(request)),
  }));
  binder.bind(r.updateMonitorGroup, async ({ body }, { caller, request }) => ({
    data: await monitoring.updateGroup(await operator(caller), body, requestLocale(request)),
  }));
  binder.bind(r.deleteMonitorGroup, async ({ body }, { caller }) => {
    await monitoring.deleteGroup(await operator(caller), body.id);
    return { data: true as const };
  });
  binder.bind(r.listMonitorGroupNodes, async ({ params, query }, { caller }) => {
    const group = await monitoring.requireGroup(await operator(caller), params.id);
    return status.groupTargets(group.id, query);
  });
  binder.bind(r.listNodesEnableStatus, async ({ query }, { caller }) =>
    status.nodeStates(await operator(caller), query),
  );

  binder.bind(r.getProbes, async (_i, { node }) => {
    if (!node) throw new Error('node route without a node');
    return { data: await probes.assignments(node.ownerId, node.nodeId) };
  });
  binder.bind(r.reportProbeResults, async ({ body }, { node }) => {
    if (!node) throw new Error('node route without a node');
    await probes.report(node.ownerId, node.nodeId, body.results);
    return { data: true as const };
  });
}
