import { nodeExporterSchema } from '../edge/node-exporter.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

/**
 * The node exporter setting (edge/node-exporter.ts; spec part 2 §7 "System settings":
 * nodeExporter): the operator's, for all its nodes; a save reaches them with their next snapshot.
 */
export const getNodeExporter = route.get('client.setting.nodeExporter', '/client/setting/nodeExporter', {
  summary: "Who may scrape the nodes' metrics and how often (nobody until set)",
  response: dataOf(nodeExporterSchema),
});

export const saveNodeExporter = route.put('client.setting.nodeExporter.save', '/client/setting/nodeExporter', {
  summary:
    "Sets who may scrape the nodes' metrics (`whiteIPs`: addresses or CIDRs, empty = nobody) and the limit " +
    '(`limitCountTimes` scrapes per `limitCountSec` seconds per address, 429 over it)',
  body: nodeExporterSchema,
  response: dataOf(nodeExporterSchema),
});

export const nodeExporterRoutes = { getNodeExporter, saveNodeExporter } as const;
