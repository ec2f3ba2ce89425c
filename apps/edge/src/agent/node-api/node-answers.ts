import {
  type AnyRoute,
  DATA_PLANE_LIMITS,
  type EdgeCommand,
  edgeCommandSchema,
  getNodeCommands,
  getNodePlane,
  getNodePlaneStream,
  getNodeSnapshot,
  type PlaneAnswer,
  routeUrl,
} from '@rampart/contract';
import { z } from 'zod';
import { formatPath } from '../../data-plane/schema.js';
import { NodeApiError, SnapshotRefusedError } from './node-api-errors.js';

/*
 * The node API's answers as the agent reads them (node-client.ts): each body text parsed and
 * checked with its route's `response` schema, a failure a NodeApiError naming the field (a
 * snapshot's, a SnapshotRefusedError).
 */

/** A command the agent received: one it knows, or one it cannot run (unknown type or payload). */
export type ReceivedCommand = EdgeCommand | { id: number; type: string; refused: string };

/** The command poll's envelope: each command is then checked alone, so one unknown type spoils nothing else. */
const commandsEnvelope = z.object({
  data: z.array(z.looseObject({ id: z.number().int().positive(), type: z.string().max(64) })).max(100),
});

/** A JSON answer checked with `route`'s response schema. */
export function jsonAnswer(route: AnyRoute, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NodeApiError(200, `${routeUrl(route)} answered something that is not JSON`);
  }
  const result = route.response.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new NodeApiError(
      200,
      `${routeUrl(route)} answered an unexpected body: ${formatPath(issue?.path ?? [])}: ${issue?.message}`,
    );
  }
  return result.data;
}

/** One line of the data-plane stream. */
export function planeStreamLine(line: string): PlaneAnswer {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new NodeApiError(200, `plane stream line is not JSON: ${(err as Error).message}`);
  }
  const result = getNodePlaneStream.response.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new NodeApiError(200, `plane stream line: ${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
}

/** The snapshot long poll's answer; one that fails the contract throws SnapshotRefusedError. */
export function snapshotAnswer(text: string): z.output<(typeof getNodeSnapshot)['response']> {
  // The largest data plane plus room for the envelope and the listen settings.
  if (Buffer.byteLength(text, 'utf8') > DATA_PLANE_LIMITS.documentBytes + 1024 * 1024) {
    throw new SnapshotRefusedError(null, '(document)', 'larger than the data-plane limit');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new NodeApiError(200, `snapshot answer is not JSON: ${(err as Error).message}`);
  }
  const result = getNodeSnapshot.response.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const data = (value as { data?: { version?: unknown } } | null)?.data;
  const refusedVersion = typeof data?.version === 'string' && /^[0-9a-f]{32}$/.test(data.version) ? data.version : null;
  if (path[0] === 'data' && path.length > 1 && data !== null && typeof data === 'object') {
    throw new SnapshotRefusedError(refusedVersion, formatPath(path.slice(1)), issue?.message ?? 'invalid');
  }
  throw new NodeApiError(200, `snapshot answer: ${formatPath(path)}: ${issue?.message ?? 'invalid'}`);
}

/** The data-plane long poll's answer. */
export function planeAnswer(text: string): z.output<(typeof getNodePlane)['response']> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new NodeApiError(200, `plane answer is not JSON: ${(err as Error).message}`);
  }
  const result = getNodePlane.response.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new NodeApiError(200, `plane answer: ${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
}

/** The command poll's answer: each command checked alone, one this agent cannot run comes back refused. */
export function commandsAnswer(text: string): ReceivedCommand[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NodeApiError(200, `${routeUrl(getNodeCommands)} answered something that is not JSON`);
  }
  const envelope = commandsEnvelope.safeParse(value);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    throw new NodeApiError(200, `commands answer: ${formatPath(issue?.path ?? [])}: ${issue?.message}`);
  }
  return envelope.data.data.map((item): ReceivedCommand => {
    const command = edgeCommandSchema.safeParse(item);
    if (command.success) return command.data;
    const issue = command.error.issues[0];
    return { id: item.id, type: item.type, refused: `${formatPath(issue?.path ?? [])}: ${issue?.message}` };
  });
}
