import { nodeExporterSchema } from '../edge/node-exporter.js';
import { dataOf, defineRoute, tiers } from '../route.js';

/**
 * The node exporter setting (edge/node-exporter.ts; spec part 2 §7 "System settings":
 * nodeExporter): the operator's, for all its nodes; a save reaches them with their next snapshot.
 */
export const getNodeExporter = defineRoute({
  id: 'client.setting.nodeExporter',
  method: 'GET',
  path: '/client/setting/nodeExporter',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary: "Who may scrape the nodes' metrics and how often (nobody until set)",
  tags: ['settings'],
  request: {},
  response: dataOf(nodeExporterSchema),
});

export const saveNodeExporter = defineRoute({
  id: 'client.setting.nodeExporter.save',
  method: 'PUT',
  path: '/client/setting/nodeExporter',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary:
    "Sets who may scrape the nodes' metrics (`whiteIPs`: addresses or CIDRs, empty = nobody) and the limit " +
    '(`limitCountTimes` scrapes per `limitCountSec` seconds per address, 429 over it)',
  tags: ['settings'],
  request: { body: nodeExporterSchema },
  response: dataOf(nodeExporterSchema),
});

export const nodeExporterRoutes = { getNodeExporter, saveNodeExporter } as const;
