import type { FastifyReply } from 'fastify';

/**
 * Sends a file for the browser to save (CSV exports, log exports, backups): never cached, named by
 * `Content-Disposition`, which the console may read across origins; `bytes` when the size is known
 * ahead of a stream. The route's handler then answers '' (the reply is already sent).
 */
export function sendAttachment(
  reply: FastifyReply,
  file: { fileName: string; type: string; body: string | Buffer | NodeJS.ReadableStream; bytes?: number },
): void {
  reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('access-control-expose-headers', 'Content-Disposition');
  if (file.bytes !== undefined) reply.header('content-length', String(file.bytes));
  reply.type(file.type).send(file.body);
}
