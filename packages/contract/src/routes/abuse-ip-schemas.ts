import { z } from 'zod';
import type { ValidationKey } from '../validation-messages.js';
import { type IPVersion, parseCIDR, parseIP } from '../validators/ip.js';
import { hasUnsafeCharacter } from '../validators/text.js';
import { zMemo } from '../validators/zod.js';
import { CHALLENGE_OR_BLOCK_TYPES } from './firewall-lists.js';

// The operator's abuse-IP list: entries, their parsing and the import; the routes are in firewall-reputation.ts.
export const ABUSE_IP_SCORE_MIN = 1;
export const ABUSE_IP_SCORE_MAX = 100;
/** A new site setting's threshold. */
export const ABUSE_IP_THRESHOLD_DEFAULT = 60;
/** Most entries in one operator's list (101029 beyond). */
export const ABUSE_IPS_MAX = 100_000;
/** Most entries one add call carries. */
export const ABUSE_IPS_ADD_MAX = 1000;
/** Most data rows one import takes (comments and blank lines not counted). */
export const ABUSE_IP_IMPORT_ROWS_MAX = 100_000;
/** Longest import text in characters (100,000 IPv6 rows with short memos). */
export const ABUSE_IP_IMPORT_TEXT_MAX = 8 * 1024 * 1024;
/** The request body limit of the import call (the text, JSON-escaped, and the other fields). */
export const ABUSE_IP_IMPORT_BODY_BYTES = 12 * 1024 * 1024;
/** Most bad rows one refused import names (the rest are counted). */
export const ABUSE_IP_IMPORT_ERRORS_MAX = 20;
export const ABUSE_IP_IMPORT_MODES = ['merge', 'replace'] as const;
export type AbuseIPImportMode = (typeof ABUSE_IP_IMPORT_MODES)[number];
export const ABUSE_IP_SORT_FIELDS = ['score', 'ip', 'updatedAt'] as const;
/** The protection modes of the site setting (CHALLENGE_OR_BLOCK_TYPES). */
export const ABUSE_IP_BLOCK_TYPES = CHALLENGE_OR_BLOCK_TYPES;

/** An entry's addresses: its family and first and last address. */
export interface AbuseIPBounds {
  version: IPVersion;
  first: bigint;
  last: bigint;
}

/** An entry in its stored form and the addresses it covers. */
export interface NormalizedAbuseIP extends AbuseIPBounds {
  ip: string;
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/** An address in text: IPv4 dotted, IPv6 lower case with the longest run of zero groups (two or more) as `::`. */
export function formatIP(version: IPVersion, value: bigint): string {
  if (version === 4) {
    const v = Number(value);
    return `${Math.floor(v / 0x1000000) % 256}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
  }
  // The 128 bits as four 32-bit Numbers (four bigint steps), each split into its two groups.
  const groups: number[] = [];
  for (let shift = 96n; shift >= 0n; shift -= 32n) {
    const word = Number(BigInt.asUintN(32, value >> shift));
    groups.push(word >>> 16, word & 0xffff);
  }
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j;
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLength))}`;
}

/**
 * An entry of the list (one IPv4 or IPv6 address, or a CIDR block) in its stored form, or null
 * when it is neither. Address ranges (`a-b`) are not entries of this list.
 */
export function normalizeAbuseIP(input: string): NormalizedAbuseIP | null {
  const text = input.trim();
  let version: IPVersion;
  let value: bigint;
  let prefix: number;
  const ip = parseIP(text);
  if (ip) {
    ({ version, value } = ip);
    prefix = version === 4 ? 32 : 128;
  } else {
    const cidr = parseCIDR(text);
    if (!cidr) return null;
    ({ version, value } = cidr.ip);
    prefix = cidr.prefix;
  }
  // IPv4-mapped IPv6 (::ffff:0:0/96 and inside it) is IPv4, as the edge matches such a client.
  if (version === 6 && prefix >= 96 && value >> 32n === 0xffffn) {
    version = 4;
    value -= V4_MAPPED_PREFIX;
    prefix -= 96;
  }
  const bits = version === 4 ? 32 : 128;
  const host = BigInt(bits - prefix);
  const first = (value >> host) << host;
  const last = first + (1n << host) - 1n;
  const address = formatIP(version, first);
  return { ip: prefix === bits ? address : `${address}/${prefix}`, version, first, last };
}

/** Why an entry is refused, or null. */
export function abuseIPProblem(input: string): 'required' | 'wrongFormat' | null {
  if (input.trim() === '') return 'required';
  return normalizeAbuseIP(input) === null ? 'wrongFormat' : null;
}

const zAbuseIP = z
  .string({ error: (issue) => (issue.input === undefined ? 'required' : 'invalid_type') })
  .superRefine((value, ctx) => {
    const problem = value.length > 64 ? 'wrongFormat' : abuseIPProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => normalizeAbuseIP(value)?.ip ?? value);

/** A score: a whole number from 1 to 100 (also a site's threshold). */
export const zAbuseIPScore = z.number().int().min(ABUSE_IP_SCORE_MIN).max(ABUSE_IP_SCORE_MAX);

export const abuseIPInputSchema = z.object({
  /** An IPv4 or IPv6 address or CIDR block; stored normalised (see the module comment). */
  ip: zAbuseIP,
  score: zAbuseIPScore,
  memo: zMemo,
});
export type AbuseIPInput = z.input<typeof abuseIPInputSchema>;
export type AbuseIPIn = z.output<typeof abuseIPInputSchema>;

export const abuseIPSchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  score: z.number().int(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AbuseIP = z.infer<typeof abuseIPSchema>;

/** Duplicates among entries (already normalised): the index of every entry that repeats an earlier one. */
export function duplicateAbuseIPs(ips: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  ips.forEach((ip, i) => {
    if (seen.has(ip)) out.push(i);
    seen.add(ip);
  });
  return out;
}

// The import.

/** One row of an import: the entry (normalised), its score and memo, and the line it came from. */
export interface AbuseIPImportRow {
  ip: string;
  score: number;
  memo: string;
  line: number;
}

/** A refused row: its line (1-based) and why (a validation key with its parameters). */
export interface AbuseIPImportError {
  line: number;
  key: ValidationKey;
  params: Record<string, string | number>;
}

export type AbuseIPImportParse =
  | { ok: true; rows: AbuseIPImportRow[] }
  | { ok: false; errors: AbuseIPImportError[]; more: number; tooMany?: undefined }
  | { ok: false; errors: []; more: 0; tooMany: number };

const SCORE_RE = /^[0-9]{1,3}$/;
const MEMO_MAX = 256;

/** A field trimmed and, when quoted whole (`"1.2.3.4"`), without its quotes; the pattern runs only on a quoted field. */
function unquote(s: string): string {
  const t = s.trim();
  return t.charCodeAt(0) === 34 ? t.replace(/^"(.*)"$/, '$1') : t;
}

/**
 * Reads an import: one entry per line, either CSV `ip,score[,memo]` (the memo is the rest of the
 * line, commas included) or a plain `ip`, which gets `defaultScore`. Blank lines and lines starting
 * with `#` are skipped, and so is a first row whose first field is `ip` (a CSV header). Fields are
 * trimmed; an entry may be quoted (`"1.2.3.4"`). All or none: every bad row is reported with its
 * line (at most {@link ABUSE_IP_IMPORT_ERRORS_MAX}, the rest counted in `more`), an entry twice in
 * the text is refused on its second line, and more than {@link ABUSE_IP_IMPORT_ROWS_MAX} rows
 * refuses the whole text (`tooMany`).
 */
export function parseAbuseIPImport(text: string, defaultScore: number): AbuseIPImportParse {
  const rows: AbuseIPImportRow[] = [];
  const errors: AbuseIPImportError[] = [];
  let bad = 0;
  const fail = (line: number, key: ValidationKey, params: Record<string, string | number> = {}) => {
    bad++;
    if (errors.length < ABUSE_IP_IMPORT_ERRORS_MAX) errors.push({ line, key, params: { line, ...params } });
  };
  const firstLineOf = new Map<string, number>();
  const lines = text.split('\n');
  let dataRows = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    // trim() takes a CRLF line's \r too.
    const raw = (lines[i] as string).trim();
    if (raw === '' || raw.charCodeAt(0) === 35) continue;
    const comma = raw.indexOf(',');
    const ipText = unquote(comma < 0 ? raw : raw.slice(0, comma));
    if (dataRows === 0 && ipText.toLowerCase() === 'ip') continue;
    dataRows++;
    if (dataRows > ABUSE_IP_IMPORT_ROWS_MAX) continue;
    const rest = comma < 0 ? null : raw.slice(comma + 1);
    const second = rest === null ? -1 : rest.indexOf(',');
    const scoreText = rest === null ? null : unquote(second < 0 ? rest : rest.slice(0, second));
    const memo = rest === null || second < 0 ? '' : unquote(rest.slice(second + 1));
    const entry = ipText.length <= 64 ? normalizeAbuseIP(ipText) : null;
    if (!entry) {
      fail(line, 'abuseIPImportIP');
      continue;
    }
    let score = defaultScore;
    if (scoreText !== null) {
      score = SCORE_RE.test(scoreText) ? Number(scoreText) : Number.NaN;
      if (!(score >= ABUSE_IP_SCORE_MIN && score <= ABUSE_IP_SCORE_MAX)) {
        fail(line, 'abuseIPImportScore', { min: ABUSE_IP_SCORE_MIN, max: ABUSE_IP_SCORE_MAX });
        continue;
      }
    }
    // A memo no longer than MEMO_MAX in UTF-16 units has no more code points: only a longer one is counted.
    if ((memo.length > MEMO_MAX && [...memo].length > MEMO_MAX) || hasUnsafeCharacter(memo)) {
      fail(line, 'abuseIPImportMemo', { max: MEMO_MAX });
      continue;
    }
    const first = firstLineOf.get(entry.ip);
    if (first !== undefined) {
      fail(line, 'abuseIPImportDuplicate', { first });
      continue;
    }
    firstLineOf.set(entry.ip, line);
    rows.push({ ip: entry.ip, score, memo, line });
  }
  if (dataRows > ABUSE_IP_IMPORT_ROWS_MAX) return { ok: false, errors: [], more: 0, tooMany: dataRows };
  if (bad > 0) return { ok: false, errors, more: bad - errors.length };
  return { ok: true, rows };
}

export const abuseIPImportSchema = z.object({
  /** The rows: CSV `ip,score[,memo]` or plain `ip` lines (parseAbuseIPImport). */
  text: z
    .string({ error: (issue) => (issue.input === undefined ? 'required' : 'invalid_type') })
    .min(1, { message: 'required' })
    .max(ABUSE_IP_IMPORT_TEXT_MAX),
  /** `merge`: rows update the entries with the same IP and add the others; `replace`: the rows become the whole list. */
  mode: z.enum(ABUSE_IP_IMPORT_MODES, { error: 'wrongFormat' }).default('merge'),
  /** The score of a plain `ip` line. */
  defaultScore: zAbuseIPScore.default(ABUSE_IP_SCORE_MAX),
});
export type AbuseIPImportInput = z.input<typeof abuseIPImportSchema>;

export const abuseIPImportResultSchema = z.object({
  /** Rows that added an entry. */
  added: z.number().int(),
  /** Rows that changed an existing entry's score or memo (merge). */
  updated: z.number().int(),
  /** Rows equal to an entry already there (merge). */
  unchanged: z.number().int(),
  /** Entries the import removed (replace). */
  removed: z.number().int(),
  /** Entries in the list afterwards. */
  total: z.number().int(),
});
export type AbuseIPImportSummary = z.infer<typeof abuseIPImportResultSchema>;
