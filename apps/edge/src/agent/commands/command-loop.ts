import type { CacheUrlResult, EdgeCommand } from '@rampart/contract';
import { Backoff, pause } from '../backoff.js';
import { errorText, type Logger } from '../log.js';
import type { CommandResult, NodeClient, ReceivedCommand } from '../node-api/node-client.js';

/** What a command that ran answers: its message, and for URL commands a result per URL. */
export type CommandOutcome = string | { message: string; results: CacheUrlResult[] };

export interface CommandLoopOptions {
  client: NodeClient;
  /** Runs one command and answers its outcome; throws when it failed. */
  execute: (command: EdgeCommand) => Promise<CommandOutcome>;
  log: Logger;
  signal: AbortSignal;
  /** Runs after each command's result was reported (an upgrade then restarts the agent). */
  afterEach?: () => void;
  waitSeconds: number;
  backoffMinMs: number;
  backoffMaxMs: number;
}

/** Times a result report is tried before the command is left to expire on the control plane. */
const RESULT_ATTEMPTS = 3;

/**
 * The agent's second loop beside the snapshot poll: long-polls the control plane for this node's
 * commands, runs them one at a time in the order they came, and reports each result. A command this
 * agent cannot run (unknown type or payload) is reported failed.
 */
export async function runCommandLoop(options: CommandLoopOptions): Promise<void> {
  const { client, log, signal } = options;
  const backoff = new Backoff(options.backoffMinMs, options.backoffMaxMs);
  while (!signal.aborted) {
    const started = Date.now();
    let commands: ReceivedCommand[];
    try {
      commands = await client.commands(options.waitSeconds, signal);
      backoff.reset();
    } catch (err) {
      if (signal.aborted) return;
      const retryInMs = backoff.next();
      log('warn', 'commands.poll_failed', { error: errorText(err), retryInMs });
      await pause(retryInMs, signal);
      continue;
    }
    for (const command of commands) {
      if (signal.aborted) return;
      await runOne(options, command);
      options.afterEach?.();
    }
    // A control plane that answers "nothing" at once must not make this loop spin.
    const elapsed = Date.now() - started;
    if (commands.length === 0 && elapsed < 1000) await pause(1000 - elapsed, signal);
  }
}

async function runOne(options: CommandLoopOptions, command: ReceivedCommand): Promise<void> {
  const { client, log, signal } = options;
  let result: CommandResult;
  if ('refused' in command) {
    result = { ok: false, message: `this agent cannot run ${command.type}: ${command.refused}` };
  } else {
    log('info', 'command.started', { id: command.id, type: command.type });
    try {
      const outcome = await options.execute(command);
      result = typeof outcome === 'string' ? { ok: true, message: outcome } : { ok: true, ...outcome };
    } catch (err) {
      result = { ok: false, message: errorText(err) };
    }
  }
  log(result.ok ? 'info' : 'error', 'command.finished', {
    id: command.id,
    type: command.type,
    ok: result.ok,
    message: result.message,
    ...(result.results ? { urls: result.results.length, urlsFailed: result.results.filter((r) => !r.ok).length } : {}),
  });
  for (let attempt = 1; attempt <= RESULT_ATTEMPTS && !signal.aborted; attempt++) {
    try {
      await client.commandResult(command.id, result, signal);
      return;
    } catch (err) {
      log('warn', 'command.result_failed', { id: command.id, attempt, error: errorText(err) });
      await pause(options.backoffMinMs * attempt, signal);
    }
  }
}
