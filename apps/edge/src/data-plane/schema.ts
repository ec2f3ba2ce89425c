import { DATA_PLANE_LIMITS, type DataPlane, dataPlaneSchema } from '@rampart/contract';

/**
 * The data-plane document's schemas live in the contract (the control plane builds what the agent
 * checks); this module parses a serialized document and names the first bad field.
 */
export {
  DATA_PLANE_LIMITS,
  type DataPlane,
  dataPlaneSchema,
  type EdgeCertificate as Certificate,
  type EdgeDomain as Domain,
  type EdgeUpstream as Upstream,
  edgeCertificateSchema as certificateSchema,
  edgeDomainSchema as domainSchema,
  edgeOriginSchema as originSchema,
  edgeUpstreamSchema as upstreamSchema,
  HOST_NAME_RE,
} from '@rampart/contract';

export type DataPlaneErrorCode = 'too_large' | 'invalid_json' | 'invalid_document';

/** A refused document; `field` is the path of the first bad value, e.g. `domains[3].origin.upstreams[0].ip`. */
export class DataPlaneError extends Error {
  override readonly name = 'DataPlaneError';
  constructor(
    readonly code: DataPlaneErrorCode,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(document)' : out;
}

/** Parses and validates the serialized document; throws DataPlaneError naming the first bad field. */
export function parseDataPlane(json: string | Uint8Array): DataPlane {
  const bytes = typeof json === 'string' ? Buffer.byteLength(json, 'utf8') : json.byteLength;
  if (bytes > DATA_PLANE_LIMITS.documentBytes) {
    throw new DataPlaneError('too_large', '(document)', `larger than ${DATA_PLANE_LIMITS.documentBytes} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(typeof json === 'string' ? json : Buffer.from(json).toString('utf8'));
  } catch (err) {
    throw new DataPlaneError('invalid_json', '(document)', (err as Error).message);
  }
  const result = dataPlaneSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new DataPlaneError('invalid_document', formatPath(issue?.path ?? []), issue?.message ?? 'invalid');
  }
  return result.data;
}
