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
