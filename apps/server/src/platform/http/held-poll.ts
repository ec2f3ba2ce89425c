import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Runs a held (long) poll with a signal aborted when the caller hangs up: its wait ends at once
 * instead of holding a waiter until the deadline (the response closes before it was written only
 * when the connection went away).
 */
export async function whileConnected<T>(reply: FastifyReply, poll: (hangUp: AbortSignal) => Promise<T>): Promise<T> {
  const hangUp = new AbortController();
  const onClose = () => hangUp.abort();
  reply.raw.once('close', onClose);
  try {
    return await poll(hangUp.signal);
  } finally {
    reply.raw.off('close', onClose);
  }
}

/**
 * Replies `{"data": …}` around JSON text a `jsonText` route's service made and checked once (null
 * when there is nothing to say).
 */
export function sendDataText(reply: FastifyReply, json: string | null): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(`{"data":${json ?? 'null'}}`);
}

/**
 * Replies a stream of lines that `produce` writes (each with a newline added) after an empty
 * one, ended when it returns. A write waits while the caller reads slower than the lines come (its own stream only).
 */
export function sendLines(
  reply: FastifyReply,
  type: string,
  produce: (write: (line: string) => Promise<void>) => Promise<unknown>,
): FastifyReply {
  const lines = new PassThrough();
  // A caller gone mid-write: what is left is dropped (the hang-up signal ends the producer).
  lines.on('error', () => {});
  const write = (line: string): Promise<void> => {
    if (lines.destroyed || lines.write(`${line}\n`)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        lines.off('drain', done);
        lines.off('close', done);
        resolve();
      };
      lines.on('drain', done);
      lines.on('close', done);
    });
  };
  // An empty line at once: the headers go out with it (not with the first line, which may be minutes away).
  lines.write('\n');
  void produce(write).finally(() => lines.end());
  return reply.type(type).header('cache-control', 'no-store').send(lines);
}
