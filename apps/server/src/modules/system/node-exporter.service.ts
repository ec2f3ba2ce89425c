import { NODE_EXPORTER_DEFAULT, type NodeExporter, nodeExporterSchema } from '@rampart/contract';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';

const key = (operatorId: number) => `nodeExporter:${operatorId}`;

/**
 * The operator's node exporter setting (contract edge/node-exporter.ts), one per operator in the
 * installation's settings. Its nodes take it with their next snapshot (the save bumps the
 * configuration like every console write): the agent applies it without touching nginx.
 */
export class NodeExporterService {
  constructor(private readonly settings: SettingsRepository) {}

  async get(operatorId: number): Promise<NodeExporter> {
    const stored = nodeExporterSchema.safeParse(await this.settings.get(key(operatorId)));
    return stored.success ? stored.data : NODE_EXPORTER_DEFAULT;
  }

  async save(operatorId: number, input: NodeExporter): Promise<NodeExporter> {
    await this.settings.put(key(operatorId), input);
    return input;
  }
}
