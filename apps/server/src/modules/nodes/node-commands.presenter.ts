import type { EdgeCommand, NodeCommand } from '@rampart/contract';
import type { NodeCommandRow } from './node-commands.repository.js';

export function presentNodeCommand(row: NodeCommandRow): NodeCommand {
  return {
    id: row.id,
    nodeId: row.nodeId,
    type: row.type,
    status: row.status,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    results: row.results,
  };
}

/** The command as the agent receives it: each type's payload, as the queuing call stored it. */
export function presentEdgeCommand(row: NodeCommandRow): EdgeCommand {
  const { id, type, payload } = row;
  switch (type) {
    case 'upgrade':
      return { id, type, payload: { version: String(payload.version) } };
    case 'clearCache':
      return { id, type, payload: { epoch: Number(payload.epoch) } };
    case 'purgeUrls':
    case 'preheat':
      return { id, type, payload: { urls: (payload.urls as string[]) ?? [] } };
    case 'unblock':
      return { id, type, payload: { entries: (payload.entries as { siteId: number; ip: string }[]) ?? [] } };
    case 'block':
      return {
        id,
        type,
        payload: { entries: (payload.entries as { siteId: number; ip: string; seconds: number }[]) ?? [] },
      };
    default:
      return { id, type, payload: {} };
  }
}
