import { nodeExporterRoutes, systemHealthRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { NodeExporterService } from './node-exporter.service.js';
import type { SystemHealthService } from './system-health.service.js';

/** The operator's node exporter setting and system health page; both are the caller's operator's. */
export function bindNodeExporterHealthRoutes(
  binder: Binder,
  nodeExporter: NodeExporterService,
  health: SystemHealthService,
): void {
  binder.bind(nodeExporterRoutes.getNodeExporter, async (_i, { caller }) => ({
    data: await nodeExporter.get(caller.operatorId),
  }));
  binder.bind(nodeExporterRoutes.saveNodeExporter, async ({ body }, { caller }) => ({
    data: await nodeExporter.save(caller.operatorId, body),
  }));
  binder.bind(systemHealthRoutes.getSystemHealth, async (_i, { caller }) => ({
    data: await health.check(caller.operatorId),
  }));
}
