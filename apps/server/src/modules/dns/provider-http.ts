import { DnsProviderError } from './dns-provider.js';

export interface HttpAnswer {
  readonly status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: unknown;
}

/**
 * One HTTP call of a provider's API, bounded by `timeoutMs` (connect to last byte). Network
 * failures and timeouts become DnsProviderError naming the host (never the credentials, which
 * travel in headers or the body only).
 */
export async function providerCall(url: string, init: RequestInit, timeoutMs: number): Promise<HttpAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    const host = new URL(url).host;
    const reason =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : String(error);
    throw new DnsProviderError(`${host}: ${reason}`);
  }
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, body };
}

/** The first `error`/`message` string of a JSON error body, else the text, shortened. */
export function errorText(body: unknown): string {
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    for (const key of ['error', 'message']) if (typeof o[key] === 'string') return (o[key] as string).slice(0, 500);
  }
  return (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 500);
}
