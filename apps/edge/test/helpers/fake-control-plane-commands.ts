import type http from 'node:http';
import {
  EDGE_API_BASE,
  getNodeCommands,
  getProbes,
  type ProbeAssignment,
  reportNodeCommandResult,
  reportProbeResults,
} from '@rampart/contract';
import type { z } from 'zod';
import type { FakeHttp } from './fake-control-plane-planes.js';

/*
 * The fake control plane's command and probe routes (fake-control-plane.ts composes them): the
 * command long poll and the results the agents report, the probe assignments and their results.
 */

export interface CommandResult {
  id: number;
  nodeId: number;
  ok: boolean;
  message: string;
}
export type ProbeResult = z.output<NonNullable<(typeof reportProbeResults)['request']['body']>>['results'][number] & {
  monitorNodeId: number;
};

/** What a test calls on the fake's command and probe routes (part of FakeControlPlane). */
export interface FakeCommands {
  /** Queues a command (any object, even one the agent cannot run) for the next command poll. */
  queueCommand(command: unknown): void;
  /** Results the agent reported, in order. */
  results: CommandResult[];
  /** Resolves with the result of command `id` (already received or to come). */
  waitForResult(id: number, timeoutMs?: number): Promise<CommandResult>;
  /** Probe results the nodes reported, in order. */
  probeResults: ProbeResult[];
  /** Answers `assignments` to every node's `GET /probes` from now on (none at first). */
  setProbes(assignments: ProbeAssignment[]): void;
  /** Resolves once the results reported so far satisfy `match`. */
  waitForProbeResults(match: (results: ProbeResult[]) => boolean, timeoutMs?: number): Promise<ProbeResult[]>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The command and probe routes of one fake control plane. */
export function commandServer({ verify, send, invalidToken }: FakeHttp): FakeCommands & {
  handle(route: string, url: URL, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): boolean;
} {
  let probes: ProbeAssignment[] = [];
  const probeResults: ProbeResult[] = [];
  let probeWaiters: (() => void)[] = [];
  let commands: unknown[] = [];
  let commandWaiters: (() => void)[] = [];
  const results: CommandResult[] = [];
  let resultWaiters: (() => void)[] = [];

  const handle = (
    route: string,
    url: URL,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
  ): boolean => {
    const body = raw.toString('utf8');
    if (route === `GET ${EDGE_API_BASE}${getNodeCommands.path}`) {
      if (verify(req, raw) === null) {
        invalidToken(res);
        return true;
      }
      const query = getNodeCommands.request.query.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) {
        send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        return true;
      }
      const answer = () => {
        clearTimeout(timer);
        commandWaiters = commandWaiters.filter((w) => w !== answer);
        const taken = commands;
        commands = [];
        if (!res.writableEnded) send(res, 200, { data: taken });
      };
      const timer = setTimeout(answer, query.data.wait * 1000);
      if (commands.length > 0 || query.data.wait === 0) {
        answer();
        return true;
      }
      commandWaiters.push(answer);
      res.on('close', () => {
        clearTimeout(timer);
        commandWaiters = commandWaiters.filter((w) => w !== answer);
      });
      return true;
    }
    const result = /^\/api\/edge\/v1\/commands\/(\d+)\/result$/.exec(url.pathname);
    if (req.method === 'POST' && result) {
      const nodeId = verify(req, raw);
      if (nodeId === null) {
        invalidToken(res);
        return true;
      }
      const input = reportNodeCommandResult.request.body.safeParse(parseJson(body));
      if (!input.success) {
        send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        return true;
      }
      results.push({ id: Number(result[1]), nodeId, ...input.data });
      for (const wake of [...resultWaiters]) wake();
      send(res, 200, { data: true });
      return true;
    }
    if (route === `GET ${EDGE_API_BASE}${getProbes.path}`) {
      if (verify(req, raw) === null) invalidToken(res);
      else send(res, 200, { data: probes });
      return true;
    }
    if (route === `POST ${EDGE_API_BASE}${reportProbeResults.path}`) {
      const nodeId = verify(req, raw);
      if (nodeId === null) {
        invalidToken(res);
        return true;
      }
      const input = reportProbeResults.request.body.safeParse(parseJson(body));
      if (!input.success) {
        send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        return true;
      }
      probeResults.push(...input.data.results.map((r) => ({ ...r, monitorNodeId: nodeId })));
      for (const wake of [...probeWaiters]) wake();
      send(res, 200, { data: true });
      return true;
    }
    return false;
  };

  return {
    handle,
    queueCommand(command) {
      commands.push(command);
      commandWaiters[0]?.();
    },
    results,
    waitForResult(id, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = results.find((r) => r.id === id);
          if (!found) return;
          clearTimeout(timer);
          resultWaiters = resultWaiters.filter((w) => w !== check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          resultWaiters = resultWaiters.filter((w) => w !== check);
          reject(new Error(`no result for command ${id} within ${timeoutMs} ms; results: ${JSON.stringify(results)}`));
        }, timeoutMs);
        resultWaiters.push(check);
        check();
      });
    },
    probeResults,
    setProbes(assignments) {
      probes = assignments;
    },
    waitForProbeResults(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!match(probeResults)) return;
          clearTimeout(timer);
          probeWaiters = probeWaiters.filter((w) => w !== check);
          resolve(probeResults);
        };
        const timer = setTimeout(() => {
          probeWaiters = probeWaiters.filter((w) => w !== check);
          reject(new Error(`no matching probe results within ${timeoutMs} ms: ${JSON.stringify(probeResults)}`));
        }, timeoutMs);
        probeWaiters.push(check);
        check();
      });
    },
  };
}
