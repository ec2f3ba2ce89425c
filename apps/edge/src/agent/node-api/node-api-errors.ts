import type { AnyRoute } from '@rampart/contract';

/*
 * The node API client's errors (node-client.ts) and the fetch helpers that make them: a timeout
 * joined to the caller's signal, why a request got no answer, a refusal with the control plane's
 * code, and a body read up to a bound.
 */

/** A call that did not get a valid 2xx answer (status 0: no answer at all). */
export class NodeApiError extends Error {
  override readonly name = 'NodeApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: number | null = null,
    /** The answer's Retry-After, ms (a busy control plane says when to come again); null without one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * The longest a Retry-After is followed: a control plane (or a proxy before it) saying a day would
 * stop shipping for a day, and a delay past setTimeout's 2^31 ms would fire at once (a busy loop).
 */
export const RETRY_AFTER_MAX_MS = 300_000;

/**
 * A Retry-After header's delay in ms, at most RETRY_AFTER_MAX_MS: whole seconds, or an HTTP date
 * (it starts with the day's name); null for anything else (absent, negative, a fraction, a number
 * in another form): the caller's own backoff then.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  const value = header?.trim() ?? '';
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, RETRY_AFTER_MAX_MS);
  if (!/^[A-Za-z]{3}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), RETRY_AFTER_MAX_MS);
}

/**
 * The control plane answered a snapshot that fails the contract's schema (edgeSnapshotSchema with
 * the data-plane allowlists). `version` is the refused snapshot's version when it had a valid one.
 */
export class SnapshotRefusedError extends Error {
  override readonly name = 'SnapshotRefusedError';
  constructor(
    readonly version: string | null,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`snapshot ${version ?? '(no version)'} refused: ${field}: ${reason}`);
  }
}

/** Combines the caller's signal (agent shutdown) with a timeout; AbortSignal.any needs Node 20.3. */
export function withTimeout(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${ms} ms`)), ms);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Why a request got no answer: fetch's cause (a system error code) when it names one. */
export function failureDetail(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** The error for a refused call: the control plane's code and message when it gave them. */
export function refusal(
  route: AnyRoute,
  url: URL,
  status: number,
  text: string,
  serverDate: string | null,
  signed: boolean,
  retryAfter: string | null = null,
): NodeApiError {
  let code: number | null = null;
  let message = text.slice(0, 200);
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'number') code = parsed.code;
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: keep the text.
  }
  // A signed request is refused when the clocks differ by more than NODE_SIGNATURE_MAX_SKEW_SECONDS.
  const skew = serverDate === null ? Number.NaN : Math.round((Date.now() - Date.parse(serverDate)) / 1000);
  if (status === 401 && signed && Math.abs(skew) > 60) {
    message += ` (this node's clock is ${skew} s off the control plane's)`;
  }
  return new NodeApiError(
    status,
    `${route.method} ${url.pathname} answered ${status}: ${message}`,
    code,
    retryAfterMs(retryAfter),
  );
}

/** Reads a response body, refusing one longer than `maxBytes` as soon as it is known to be. */
export async function readBounded(response: Response, maxBytes: number | undefined): Promise<Buffer> {
  if (maxBytes === undefined) return Buffer.from(await response.arrayBuffer());
  const refuse = () => new NodeApiError(response.status, `answer larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw refuse();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw refuse();
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}
