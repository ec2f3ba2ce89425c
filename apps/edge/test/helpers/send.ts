import http from 'node:http';

/** An answer with its headers; 'closed' when the edge closed the connection unanswered (444). */
export interface FullReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes (images). */
  bytes: Buffer;
}

/**
 * One HTTP request on a new connection from the loopback address `from` to the edge on `port`
 * (of 127.0.0.1, or the address `to`), for `host`, with an optional body (a form, when a string is
 * given with its content type; bytes as they are).
 */
export function sendFrom(
  from: string,
  port: number,
  host: string,
  options: {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    to?: string;
  } = {},
): Promise<FullReply | 'closed'> {
  const { path = '/', method = 'GET' } = options;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: options.to ?? '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        headers: { ...options.headers, host },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`request for ${host}${path} timed out`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.message === 'socket hang up') resolve('closed');
      else reject(err);
    });
    req.end(options.body);
  });
}

/** The status of {@link sendFrom}'s answer, or 'closed' when the edge closed the connection unanswered (444). */
export async function sendStatus(
  from: string,
  port: number,
  host: string,
  options: Parameters<typeof sendFrom>[3] = {},
): Promise<number | 'closed'> {
  const reply = await sendFrom(from, port, host, options);
  return reply === 'closed' ? reply : reply.status;
}
