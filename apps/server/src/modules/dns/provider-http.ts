import { GuardedRequestError, guardedRequest } from '../../platform/http/guarded-request.js';
import { type TargetGuard, TargetRefusedError } from '../../platform/http/target-guard.js';
import { DnsProviderError } from './dns-provider.js';

export interface HttpAnswer {
  readonly status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: unknown;
}

/** What a provider's HTTP call sends. */
export interface ProviderRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * One HTTP call of a provider's API through the target guard (platform/http/target-guard.ts: the
 * host's addresses checked and the connection pinned to them, no redirects followed), bounded by
 * `timeoutMs` (connect to last byte). A refused destination, a network failure or a timeout
 * becomes DnsProviderError naming the host and nothing of what answered (never the credentials,
 * which travel in headers or the body only).
 */
export async function providerCall(
  targets: TargetGuard,
  url: string,
  init: ProviderRequest,
  timeoutMs: number,
): Promise<HttpAnswer> {
  let text: string;
  let status: number;
  try {
    const answer = await guardedRequest(targets, url, { ...init, timeoutMs });
    text = answer.text;
    status = answer.status;
  } catch (error) {
    const host = new URL(url).host;
    if (error instanceof TargetRefusedError || error instanceof GuardedRequestError)
      throw new DnsProviderError(`${host}: ${error.message}`);
    throw error;
  }
  if (status >= 300 && status < 400) throw new DnsProviderError(`${new URL(url).host}: redirects are not followed`);
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status, body };
}

/** The first `error`/`message` string of a JSON error body, else the text, shortened. */
export function errorText(body: unknown): string {
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    for (const key of ['error', 'message']) if (typeof o[key] === 'string') return (o[key] as string).slice(0, 500);
  }
  return (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 500);
}
