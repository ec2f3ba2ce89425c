import { appendFileSync } from 'node:fs';
import { type AnyRoute, type ErrorCode, routeCodes } from '@rampart/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors/app-error.js';

/** What the binder does with the catalogue codes a route answers. */
export interface RouteCodeOptions {
  /**
   * A file to which every answered code is appended as `<routeId> <code>` (the items of a 101009
   * batch error too): how the contract's `codes` lists were filled from the test suite.
   * `RAMPART_RECORD_ROUTE_CODES` sets it.
   */
  readonly recordFile?: string | undefined;
  /**
   * A code outside the route's declared and implied codes is logged and answered 101002, so a
   * test that reaches an undeclared code fails. On in the test app; off in production, where the
   * reply is the service's own.
   */
  readonly strict?: boolean | undefined;
}

/** Every code an error carries: its own and, for a 101009 batch, each item's. */
function codesOf(error: AppError): ErrorCode[] {
  return [error.code, ...(error.errors ?? []).map((item) => item.code)];
}

/**
 * The check of one route, or null when neither recording nor strict checking is on. It takes the
 * error a call failed with and returns the error to answer with.
 */
export function routeCodeCheck(
  route: AnyRoute,
  { recordFile, strict }: RouteCodeOptions,
): ((error: unknown, log: FastifyBaseLogger) => unknown) | null {
  if (!recordFile && !strict) return null;
  const allowed = routeCodes(route);
  return (error, log) => {
    if (!(error instanceof AppError)) return error;
    const codes = codesOf(error);
    if (recordFile) appendFileSync(recordFile, codes.map((code) => `${route.id} ${code}\n`).join(''));
    const undeclared = codes.filter((code) => !allowed.has(code));
    if (!strict || undeclared.length === 0) return error;
    log.error(
      { err: error, route: route.id, undeclared },
      `route ${route.id} answered ${undeclared.join(', ')}, not among its declared codes (packages/contract/src/routes)`,
    );
    return new AppError(101002, { cause: error });
  };
}
