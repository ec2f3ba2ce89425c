import type { NodeUpgradeLog } from '@rampart/contract';
import type { NodeUpgradeLogRow } from './node-upgrade.repository.js';

export function presentUpgradeLog(row: NodeUpgradeLogRow): NodeUpgradeLog {
  return {
    id: row.id,
    nodeId: row.nodeId,
    commandId: row.commandId,
    version: row.version,
    stage: row.stage,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}
