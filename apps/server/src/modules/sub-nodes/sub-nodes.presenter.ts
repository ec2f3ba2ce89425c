import type { SubNode } from '@rampart/contract';
import type { SubNodeRow } from './sub-nodes.repository.js';

export function presentSubNode(row: SubNodeRow): SubNode {
  return { id: row.id, nodeId: row.nodeId, ip: row.ip, memo: row.memo, createdAt: row.createdAt.toISOString() };
}
