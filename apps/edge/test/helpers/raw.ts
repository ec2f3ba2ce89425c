import net from 'node:net';
import tls from 'node:tls';

/** Whether `bytes` hold a whole response (by its Content-Length or its last chunk). */
function complete(bytes: Buffer): boolean {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return false;
  const head = bytes.subarray(0, split).toString('latin1').toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) return bytes.length - split - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/.test(head)) return bytes.subarray(split).includes('\r\n0\r\n\r\n');
  return false;
}

/** An answer read off the wire: status line, headers (names lower-case), de-chunked body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, as text. */
  raw: string;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export function parseAnswer(bytes: Buffer): RawAnswer {
  const split = bytes.indexOf('\r\n\r\n');
  const head = (split < 0 ? bytes : bytes.subarray(0, split)).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest;
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: body.toString('utf8'),
    raw: bytes.toString('utf8'),
  };
}

/**
 * Writes `parts` (raw request bytes; a number pauses that many milliseconds) on a new connection
 * to 127.0.0.1:`port` and reads until the server closes it or `timeoutMs` passes. For requests
 * nginx refuses before any Host is known (malformed lines, oversized headers), or that only a raw
 * socket can send. Ends at a whole answer too (by its length). `tls` opens a TLS connection with that SNI.
 */
export function rawRequest(
  port: number,
  parts: (string | Buffer | number)[],
  options: { tls?: string; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: net.Socket = options.tls
      ? tls.connect({ host: '127.0.0.1', port, servername: options.tls, rejectUnauthorized: false })
      : net.connect({ host: '127.0.0.1', port });
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A kept-alive connection stays open after a whole answer.
      if (complete(Buffer.concat(chunks))) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (err) => {
      // A reset after nginx answered (it closes while the client still sends) still counts.
      if (chunks.length > 0) done();
      else if (!finished) {
        finished = true;
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.once(options.tls ? 'secureConnect' : 'connect', async () => {
      for (const part of parts) {
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else if (!socket.destroyed) socket.write(part);
      }
    });
  });
}
