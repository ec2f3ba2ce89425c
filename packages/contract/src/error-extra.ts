import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { fieldErrorSchema } from './http.js';
import { ACCOUNT_DELETE_REFUSALS } from './routes/accounts.js';
import { INVALID_LICENSE_KEY } from './routes/licenses.js';

/**
 * What each catalogue code may carry in `extra`, one schema per code. A code not listed here
 * carries no `extra`. The server checks every error it sends against this table when it runs under
 * test (platform/errors/error-handler.ts), so the console can read `extra` with these schemas
 * instead of guessing: a number is a number, never a sentence to parse.
 */

const int = z.number().int();
const ids = z.array(int);
const reason = z.object({ reason: z.string() }).strict();
const max = z.object({ max: int }).strict();
const limit = z.object({ limit: int }).strict();
const targets = z.object({ targets: z.array(z.string()) }).strict();
const nodeIDs = z.object({ nodeIDs: ids }).strict();

/** Why a request was refused before any route read it (bad JSON, body too large, ...), worded for the caller. */
export const requestRefusalSchema = z.object({ reason: z.string(), message: z.string() }).strict();

export const ERROR_EXTRA = {
  /** The refused fields, or a request the framework refused whole. */
  101003: z.union([
    z.object({ fields: z.array(fieldErrorSchema) }).strict(),
    requestRefusalSchema,
    z.literal(INVALID_LICENSE_KEY),
  ]),
  /** The name a DNS lookup failed for. */
  101010: z.object({ name: z.string(), reason: z.string() }).strict(),
  /** The one-time ports and the upstream ports of a port batch differ in number. */
  101011: z.object({ ports: int, upstreamPorts: int }).strict(),
  101012: z.union([z.object({ retryAfterSeconds: int }).strict(), reason]),
  101013: reason,
  101016: reason,
  101018: z.union([reason, z.object({ zoneIDs: ids }).strict()]),
  /** The mail server's or Telegram's words. */
  101020: reason,
  101021: reason,
  101023: z.object({ productPortType: int }).strict(),
  /** What is taken: names, addresses, or the field whose value is. */
  101025: z.union([
    targets,
    reason,
    z.object({ ips: z.array(z.string()) }).strict(),
    z.object({ field: z.string() }).strict(),
  ]),
  101029: z.union([max, z.object({ portType: z.string(), max: int }).strict()]),
  10102502: targets,
  201003: limit,
  202002: limit,
  202003: nodeIDs,
  202004: nodeIDs,
  202005: nodeIDs,
  202006: z.object({ time: z.string().nullable() }).strict(),
  202008: z.object({ reason: z.string(), version: z.string().optional(), nodeIDs: ids.optional() }).strict(),
  203003: limit,
  205001: limit,
  205003: z.object({ reason: z.enum(ACCOUNT_DELETE_REFUSALS), count: int }).strict(),
  205004: z.object({ siteIDs: ids }).strict(),
  205007: max,
  301001: targets,
  /** A node would serve more domains than the installation allows. */
  401002: z.union([
    z.object({ scope: z.literal('node'), limit: int, nodeID: int.optional(), domains: int.optional() }).strict(),
    /** The operator's licence allows no more domains. */
    z.object({ scope: z.literal('license'), limit: int }).strict(),
  ]),
  /** The port of the site's zones the port map cannot use. */
  401003: z.object({ port: int, portType: z.enum(['http', 'https']) }).strict(),
  401004: limit,
  401007: max,
  401008: targets,
  /** The quota reached: LOG_EXPORT_ACTIVE_MAX, or the account's maxLogExportTimes. */
  601001: z.object({ num: int }).strict(),
  601002: z.object({ num: int }).strict(),
  /** The names of the rules that use the auth group. */
  701001: targets,
} as const satisfies Partial<Record<ErrorCode, z.ZodType>>;

export type ErrorExtraCode = keyof typeof ERROR_EXTRA;
/** The `extra` of a code, as the server sends it. */
export type ErrorExtra<C extends ErrorExtraCode> = z.infer<(typeof ERROR_EXTRA)[C]>;

/** Whether `extra` is what `code` may carry: nothing for a code without a schema. */
export function checkErrorExtra(code: number, extra: unknown): { ok: true } | { ok: false; problem: string } {
  const schema = (ERROR_EXTRA as Partial<Record<number, z.ZodType>>)[code];
  if (!schema) return extra === undefined ? { ok: true } : { ok: false, problem: `code ${code} carries no extra` };
  if (extra === undefined) return { ok: true };
  const parsed = schema.safeParse(extra);
  return parsed.success ? { ok: true } : { ok: false, problem: parsed.error.message };
}
