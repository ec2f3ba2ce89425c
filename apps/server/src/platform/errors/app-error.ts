import type { ErrorCode, ValidationKey } from '@rampart/contract';

/** A refused field of a 101003, worded by the error handler in the caller's language. */
export interface FieldIssueOption {
  readonly in: 'params' | 'query' | 'body';
  readonly field: string;
  readonly key: ValidationKey;
  readonly params?: Readonly<Record<string, string | number>> | undefined;
}

export interface AppErrorOptions {
  /** Values for the catalogue message's placeholders, e.g. `{ num: 3 }`. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** Sent to the client as `extra` (field errors, the port of 401003, ...). Never put secrets here. */
  readonly extra?: unknown;
  /** 101003: the refused fields; sent as `extra.fields`, each with its message in the caller's language. */
  readonly fields?: readonly FieldIssueOption[];
  /** 101009 only: one entry per failed item. */
  readonly errors?: readonly { code: ErrorCode; targets: readonly string[] }[];
  /** Overrides the code's HTTP status (a throttled login is 101012 with 429). */
  readonly status?: number;
  /** Extra reply headers, e.g. Retry-After. */
  readonly headers?: Readonly<Record<string, string>>;
  /** For the log only; never sent. */
  readonly cause?: unknown;
}

/**
 * The only error a service throws on purpose. It accepts only catalogue codes, so every failure
 * the API reports has a status, a code and a message in three languages (contract/errors.ts).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: Readonly<Record<string, string | number>> | undefined;
  readonly extra: unknown;
  readonly fields: readonly FieldIssueOption[] | undefined;
  readonly errors: AppErrorOptions['errors'];
  readonly status: number | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(`AppError ${code}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.params = options.params;
    this.extra = options.extra;
    this.fields = options.fields;
    this.errors = options.errors;
    this.status = options.status;
    this.headers = options.headers;
  }
}
