import type { Edge } from './edge.js';
import { servedBy } from './origins.js';
import { sendFrom } from './send.js';

/** Every part of a request a WAF payload can ride in. */
export type WafPlace = 'query' | 'form' | 'json' | 'xml' | 'multipart' | 'cookie' | 'header' | 'path';
export const WAF_PLACES: WafPlace[] = ['query', 'form', 'json', 'xml', 'multipart', 'cookie', 'header', 'path'];
const BOUNDARY = 'rampartWafEvasion7';

export interface WafReply {
  status: number | 'closed';
  /** The origin answered (the request was let through). */
  origin: boolean;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A request carrying `value` under `name` in `place`: its path, method, headers and body. */
export function wafRequest(place: WafPlace, value: string, name = 'v', urlPath = '/app') {
  const headers: Record<string, string> = {};
  let path = `${urlPath}?page=1`;
  let body: string | undefined;
  let method = 'GET';
  switch (place) {
    case 'query':
      path = `${urlPath}?${name}=${encodeURIComponent(value)}`;
      break;
    case 'form':
      method = 'POST';
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = `a=1&${name}=${encodeURIComponent(value)}`;
      break;
    case 'json':
      method = 'POST';
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ user: { id: 7, prefs: [{ [name]: value }] } });
      break;
    case 'xml':
      method = 'POST';
      headers['content-type'] = 'application/xml';
      body = `<?xml version="1.0"?><req><id>7</id><${name}>${xmlText(value)}</${name}></req>`;
      break;
    case 'multipart':
      method = 'POST';
      headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
      body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`;
      break;
    case 'cookie':
      headers.cookie = `session=abc123; ${name}=${encodeURIComponent(value)}`;
      break;
    case 'header':
      // (bytes beyond Latin-1 as their UTF-8, which is what a client puts on the wire)
      headers[`x-${name}`] = Buffer.from(value, 'utf8').toString('latin1');
      break;
    case 'path':
      path = `${urlPath}/${encodeURIComponent(value)}`;
      break;
  }
  return { path, method, headers, body };
}

/** Sends requests to the edge for `host` from 127.0.0.1, each on a new connection. */
export function wafSender(edge: () => Edge, host: string) {
  const send = async (request: {
    path: string;
    method: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }): Promise<WafReply> => {
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const reply = await sendFrom('127.0.0.1', edge().httpPort, host, { ...request, headers });
    if (reply === 'closed') return { status: 'closed', origin: false };
    return { status: reply.status, origin: servedBy(reply.body) === 'origin' };
  };
  return {
    send,
    /** `value` under `name` in `place`. */
    sendIn: (place: WafPlace, value: string, name = 'v', urlPath = '/app') =>
      send(wafRequest(place, value, name, urlPath)),
  };
}

/** A reply the WAF blocked: 403 from the edge, the origin never reached. */
export const blocked = (r: WafReply) => r.status === 403 && !r.origin;
/** A reply the origin gave: the request went through. */
export const passed = (r: WafReply) => r.status === 200 && r.origin;
