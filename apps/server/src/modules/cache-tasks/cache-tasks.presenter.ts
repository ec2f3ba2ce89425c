import type { CacheTask } from '@rampart/contract';
import type { CacheTaskRow, TaskCommandRow } from './cache-tasks.repository.js';

/** Tasks with their commands and the state they add up to. */
export function presentCacheTasks(tasks: CacheTaskRow[], commandRows: TaskCommandRow[]): CacheTask[] {
  return tasks.map((task) => {
    const own = commandRows.filter((r) => r.command.taskId === task.id);
    const good = own.filter((r) => r.command.status === 'succeeded' && r.command.results.every((u) => u.ok));
    const open = own.some((r) => r.command.status === 'queued' || r.command.status === 'sent');
    const state = open
      ? 'running'
      : good.length === own.length
        ? 'succeeded'
        : good.length === 0
          ? 'failed'
          : 'partial';
    return {
      id: task.id,
      kind: task.kind,
      state,
      urls: task.urls,
      createdAt: task.createdAt.toISOString(),
      nodes: own.map(({ command, nodeName }) => ({
        nodeId: command.nodeId,
        nodeName,
        commandId: command.id,
        status: command.status,
        message: command.message,
        results: command.results,
      })),
    };
  });
}
