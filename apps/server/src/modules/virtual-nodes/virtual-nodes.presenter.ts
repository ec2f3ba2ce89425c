import type { VirtualNode, VirtualNodeRecord } from '@rampart/contract';
import type { VirtualNodeRecordRow, VirtualNodeRow } from './virtual-nodes.repository.js';

export function presentVirtualNode(row: VirtualNodeRow): VirtualNode {
  return {
    id: row.id,
    zoneId: row.zoneId,
    name: row.name,
    portType: row.portType,
    memo: row.memo,
    recordCount: row.recordCount,
    lineCount: row.lineCount,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentVirtualNodeRecord(row: VirtualNodeRecordRow): VirtualNodeRecord {
  return {
    id: row.id,
    type: row.type,
    value: row.value,
    nodeId: row.nodeId,
    nodeName: row.nodeName ?? '',
    ips: row.ips ?? [],
    createdAt: row.createdAt.toISOString(),
  };
}
