import type { Localized } from './locale.js';

// What an entry of the error catalogue (errors.ts) holds, and the HTTP status of each family.

export type ErrorFamily =
  | 'ok'
  | 'parameter'
  | 'multiple'
  | 'auth'
  | 'permission'
  | 'licence'
  | 'notFound'
  | 'conflict'
  | 'limit'
  | 'rate'
  | 'upstream'
  | 'internal';

/** HTTP status of each family (the table in errors.ts says why). */
export const ERROR_FAMILY_STATUS = {
  ok: 200,
  parameter: 400,
  multiple: 400,
  auth: 401,
  permission: 403,
  licence: 403,
  notFound: 404,
  conflict: 409,
  limit: 422,
  rate: 429,
  upstream: 502,
  internal: 500,
} as const satisfies Record<ErrorFamily, number>;

export interface ErrorEntry {
  readonly status: number;
  readonly family: ErrorFamily;
  readonly message: Localized;
  /** when it is thrown */
  readonly when: string;
}
