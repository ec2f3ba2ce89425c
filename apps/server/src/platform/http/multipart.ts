import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A file part of a `multipart/form-data` body; `truncated` when it was longer than the limit. */
export interface UploadedFile {
  readonly kind: 'file';
  readonly filename: string;
  readonly data: Buffer;
  readonly truncated: boolean;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file';
}

/**
 * Accepts `multipart/form-data` bodies: text parts become strings of `request.body` (validated by
 * the route's body schema like JSON), file parts {@link UploadedFile}s that the route's service
 * judges. A file longer than `maxFileBytes` is kept cut short and flagged, so the service can name
 * the field; more parts or files than allowed fail the request (101003).
 */
export async function registerMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    throwFileSizeLimit: false,
    limits: { fileSize: maxFileBytes, files: 10, fields: 20, parts: 30, fieldSize: 64 * 1024, headerPairs: 100 },
    async onFile(part) {
      const data = await part.toBuffer();
      const file: UploadedFile = { kind: 'file', filename: part.filename, data, truncated: part.file.truncated };
      (part as unknown as { value: UploadedFile }).value = file;
    },
  });
}

/** The raw parts of a multipart body (text and files), or `{}` for any other body. */
export function multipartParts(request: FastifyRequest): Record<string, unknown> {
  if (!request.isMultipart() || typeof request.body !== 'object' || request.body === null) return {};
  return request.body as Record<string, unknown>;
}
