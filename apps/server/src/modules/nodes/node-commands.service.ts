import {
  type EdgeCommand,
  NODE_COMMAND_EXPIRY_SECONDS,
  type NodeCommand,
  type NodeCommandResultIn,
  type NodeCommandType,
} from '@rampart/contract';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { presentEdgeCommand, presentNodeCommand } from './node-commands.presenter.js';
import type { NodeCommandRow, NodeCommandsRepository } from './node-commands.repository.js';
import type { NodesRepository } from './nodes.repository.js';

/**
 * A waiting poll looks at the table this often: for commands queued by another control-plane process
 * while this one is not listening for its notifications (platform/db/change-broadcast.ts).
 */
export const RECHECK_MS = 5000;
/** Most commands handed to a node in one answer. */
const TAKE_LIMIT = 100;

/** Told about commands that ended (answered or expired), e.g. to end an upgrade. */
export type CommandsFinished = (rows: NodeCommandRow[]) => Promise<void>;

/**
 * The command channel to node agents. The operator's calls queue commands, all or none; a node's
 * long poll takes its own queued commands (woken at once by `queued`, the same mechanism as the
 * snapshot poll), and its result call answers only its own sent commands.
 */
export class NodeCommandsService {
  /** Aborted at shutdown so that held polls answer at once. */
  private readonly closing = new AbortController();
  private finished: CommandsFinished = async () => {};

  constructor(
    private readonly commands: NodeCommandsRepository,
    private readonly nodes: NodesRepository,
    private readonly transactions: Transactions,
    private readonly queued: ConfigChanges,
    private readonly clock: Clock,
  ) {}

  /** Installs the listener for ended commands (one: the upgrade service). */
  onFinished(listener: CommandsFinished): void {
    this.finished = listener;
  }

  private async expire(nodeId: number, now: Date): Promise<void> {
    const expired = await this.commands.expire(nodeId, now);
    if (expired.length > 0) await this.finished(expired);
  }

  private deadline(from: number): Date {
    return new Date(from + NODE_COMMAND_EXPIRY_SECONDS * 1000);
  }

  /**
   * Queues `type` for every id, all or none: each must be an initialised node of the operator (in the
   * zone when given). `within` runs in the same transaction once the commands are inserted (it may
   * refuse, and then nothing is queued).
   */
  async queue(
    operatorId: number,
    ids: number[],
    type: NodeCommandType,
    zoneId?: number,
    options: {
      /** The same payload for every node, or one per node id. */
      payload?: Record<string, unknown> | ((nodeId: number) => Promise<Record<string, unknown>>);
      /** Runs once the nodes are checked, before the commands are inserted: creates their task (its id). */
      task?: () => Promise<number>;
      within?: (rows: NodeCommandRow[]) => Promise<void>;
    } = {},
  ): Promise<NodeCommand[]> {
    const unique = [...new Set(ids)];
    const now = this.clock();
    const rows = await this.transactions.run(async () => {
      const found = await this.nodes.placedNodes(operatorId, unique, zoneId);
      requireEvery(found, unique, 'not every node is an initialised node of yours in this zone');
      const taskId = options.task ? await options.task() : null;
      const payloadOf = options.payload;
      const values = [];
      for (const nodeId of unique) {
        values.push({
          ownerId: operatorId,
          nodeId,
          type,
          payload: typeof payloadOf === 'function' ? await payloadOf(nodeId) : (payloadOf ?? {}),
          taskId,
          createdAt: new Date(now),
          expiresAt: this.deadline(now),
        });
      }
      const inserted = await this.commands.insertMany(values);
      await options.within?.(inserted);
      // A waiting poll reads the table on another connection: wake it once the rows are visible
      // there, after the call's transaction commits (not when this block's savepoint is released).
      this.transactions.afterCommit(() => this.queued.bump());
      return inserted;
    });
    return rows.map(presentNodeCommand);
  }

  /** The node's queued commands, now or within `waitSeconds`; an empty list when none came. */
  async poll(nodeId: number, waitSeconds: number, hangUp: AbortSignal): Promise<EdgeCommand[]> {
    const signal = AbortSignal.any([hangUp, this.closing.signal]);
    const taken = await this.queued.hold(
      async () => {
        const now = this.clock();
        await this.expire(nodeId, new Date(now));
        const rows = await this.commands.take(nodeId, new Date(now), this.deadline(now), TAKE_LIMIT);
        return { answer: rows.length > 0 ? rows.map(presentEdgeCommand) : null, recheckMs: RECHECK_MS };
      },
      waitSeconds,
      signal,
    );
    return taken ?? [];
  }

  /** Records a node's result for one of its sent commands; anything else is 101018. */
  async report(nodeId: number, id: number, result: NodeCommandResultIn): Promise<void> {
    const now = new Date(this.clock());
    await this.expire(nodeId, now);
    const done = await this.commands.finish(
      nodeId,
      id,
      result.ok ? 'succeeded' : 'failed',
      result.message,
      now,
      result.results ?? [],
    );
    if (!done) throw new AppError(101018, { extra: { reason: 'not a running command of this node' } });
    await this.finished([done]);
  }

  /** A node's commands, newest first (the caller has checked the node is the operator's). */
  async list(operatorId: number, nodeId: number, page: number, pageSize: number) {
    await this.expire(nodeId, new Date(this.clock()));
    const { rows, total } = await this.commands.list(operatorId, nodeId, page, pageSize);
    return { data: rows.map(presentNodeCommand), total };
  }

  close(): void {
    this.closing.abort();
  }
}
