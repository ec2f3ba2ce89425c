import { nodeConnection } from '../../platform/node-connection.js';
import type { OverviewRepository } from './overview.repository.js';

type ProblemRow = Awaited<ReturnType<OverviewRepository['nodeProblems']>>[number];

/** A node needing attention as the overview lists it (its first address stands for it). */
export function presentNodeProblem(row: ProblemRow, now: number) {
  return {
    id: row.id,
    name: row.name,
    ip: row.ips[0] ?? '',
    connection: nodeConnection(row.lastSeenAt, now),
    lastError: row.lastError,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}
