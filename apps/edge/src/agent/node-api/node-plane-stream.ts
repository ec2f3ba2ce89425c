import { type AnyRoute, DATA_PLANE_LIMITS, type PlaneAnswer } from '@rampart/contract';
import { planeStreamLine } from './node-answers.js';
import { failureDetail, NodeApiError, readBounded, refusal } from './node-api-errors.js';

/**
 * Reads the data-plane stream (edge.planeStream, docs/data-plane-deltas.md "Streams") of the signed
 * request `url` with `headers`: each line a plane answer handed to `take` (awaited before the next
 * is read). Resolves when the control plane ends the stream; throws a NodeApiError when it refuses
 * it, a line fails the contract, or nothing, not even the empty keep-alive line, came for `idleMs`;
 * throws what `take` throws.
 */
export async function readPlaneStream(
  route: AnyRoute,
  url: URL,
  headers: Record<string, string>,
  take: (answer: PlaneAnswer) => Promise<void>,
  signal: AbortSignal | undefined,
  idleMs: number,
): Promise<void> {
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), idleMs);
  const streamSignal = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
  const failed = (err: unknown): never => {
    if (err instanceof NodeApiError) throw err;
    const detail = idle.signal.aborted ? `nothing received for ${idleMs} ms` : failureDetail(err);
    throw new NodeApiError(0, `GET ${url.pathname}: ${detail}`);
  };
  try {
    const response = await fetch(url, { headers, signal: streamSignal }).catch(failed);
    if (response.status < 200 || response.status > 299) {
      const text = (await readBounded(response, 64 * 1024).catch(failed)).toString('utf8');
      throw refusal(route, url, response.status, text, response.headers.get('date'), true);
    }
    const maxLine = DATA_PLANE_LIMITS.documentBytes + 1024 * 1024;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const reader = response.body;
    if (!reader) return;
    try {
      for await (const chunk of reader) {
        // Silence is counted between chunks, not while a line is taken (a whole plane may take long).
        clearTimeout(timer);
        let bytes = Buffer.from(chunk);
        for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10)) {
          const line = Buffer.concat([...pending, bytes.subarray(0, at)]).toString('utf8');
          pending = [];
          pendingBytes = 0;
          bytes = bytes.subarray(at + 1);
          if (line !== '') await take(planeStreamLine(line));
        }
        pendingBytes += bytes.byteLength;
        if (pendingBytes > maxLine) throw new NodeApiError(200, `plane stream line larger than ${maxLine} bytes`);
        if (bytes.byteLength > 0) pending.push(bytes);
        timer = setTimeout(() => idle.abort(), idleMs);
      }
    } catch (err) {
      if (err instanceof NodeApiError || !(streamSignal.aborted || (err as { name?: string }).name === 'TypeError'))
        throw err;
      failed(err);
    }
  } finally {
    clearTimeout(timer);
  }
}
