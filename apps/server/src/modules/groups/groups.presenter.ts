import type { Group } from '@rampart/contract';
import type { GroupRow } from './groups.repository.js';

export function presentGroup(row: GroupRow): Group {
  return {
    id: row.id,
    zoneId: row.zoneId,
    name: row.name,
    portType: row.portType,
    isBackup: row.isBackup,
    memo: row.memo,
    nodeCount: row.nodeCount,
    virtualNodeCount: row.virtualNodeCount,
    createdAt: row.createdAt.toISOString(),
  };
}
