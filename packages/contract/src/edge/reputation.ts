import { z } from 'zod';
import { GEO_SHA256_RE } from '../routes/firewall-geos.js';
import {
  ABUSE_IP_SCORE_MAX,
  ABUSE_IP_SCORE_MIN,
  ABUSE_IPS_MAX,
  type AbuseIPBounds,
  normalizeAbuseIP,
} from '../routes/firewall-reputation.js';
import { EDGE_RULE_ACTIONS } from './challenge.js';

/**
 * IP trust protection on the edge (routes/firewall-reputation.ts; docs/decisions.md "IP trust
 * protection (abuse IPs)").
 *
 * A site that uses it carries `reputation: {threshold, action}` in its firewall entry; the node's
 * data plane names the operator's list by the SHA-256 of its file (`abuseIPs`), which the agent
 * fetches (node API `GET /reputation/abuseIPs`), checks and keeps as `<reputation dir>/<sha256>.bin`,
 * where each nginx worker reads it once per hash (rampart.firewall_reputation).
 *
 * The file ("abuse IP file", version 1), all numbers big-endian:
 *
 *   bytes 0–7    the magic `RPABUSE1`
 *   bytes 8–11   n4, the number of IPv4 ranges
 *   bytes 12–15  n6, the number of IPv6 ranges
 *   then n4 records of 9 bytes:  first address (4), last address (4), score (1)
 *   then n6 records of 33 bytes: first address (16), last address (16), score (1)
 *
 * Each family's ranges are sorted by first address and do not overlap (adjacent ranges of one
 * score are merged): where the operator's entries overlap, the control plane has cut them so that
 * every address carries the highest score of the entries that contain it. The edge finds an
 * address's score with one binary search over fixed-size records, without parsing the file.
 */
export const ABUSE_IP_FILE_MAGIC = 'RPABUSE1';
export const ABUSE_IP_FILE_HEADER_BYTES = 16;
export const ABUSE_IP_FILE_V4_RECORD_BYTES = 9;
export const ABUSE_IP_FILE_V6_RECORD_BYTES = 33;
/** The largest file a list of ABUSE_IPS_MAX entries makes (cutting overlaps gives at most 2n − 1 ranges). */
export const ABUSE_IP_FILE_MAX_BYTES = ABUSE_IP_FILE_HEADER_BYTES + 2 * ABUSE_IPS_MAX * ABUSE_IP_FILE_V6_RECORD_BYTES;

/** A site's setting as the edge reads it: clients scored at or above `threshold` get `action`. */
export const edgeReputationSchema = z
  .strictObject({
    threshold: z.number().int().min(ABUSE_IP_SCORE_MIN).max(ABUSE_IP_SCORE_MAX),
    action: z.enum(EDGE_RULE_ACTIONS),
  })
  .optional();
export type EdgeReputation = NonNullable<z.infer<typeof edgeReputationSchema>>;

/** The operator's list on the node: the SHA-256 of its file, or none. */
export const edgeAbuseIPsSchema = z.string().regex(GEO_SHA256_RE).nullable().optional();

/** One range of the file: first and last address and the score of its addresses. */
export interface AbuseIPRange {
  first: bigint;
  last: bigint;
  score: number;
}

/**
 * The ranges of each family for entries with scores: sorted, not overlapping, each address with the
 * highest score among the entries that contain it; adjacent ranges of one score merged.
 */
export function abuseIPRanges(entries: readonly (AbuseIPBounds & { score: number })[]): {
  v4: AbuseIPRange[];
  v6: AbuseIPRange[];
} {
  const byFamily: Record<4 | 6, (AbuseIPBounds & { score: number })[]> = { 4: [], 6: [] };
  for (const e of entries) byFamily[e.version].push(e);
  return { v4: cutOverlaps(byFamily[4]), v6: cutOverlaps(byFamily[6]) };
}

const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** A sweep over the boundaries: between two consecutive ones the set of covering entries is fixed. */
function cutOverlaps(items: (AbuseIPBounds & { score: number })[]): AbuseIPRange[] {
  if (items.length === 0) return [];
  const sorted = [...items].sort((a, b) => cmp(a.first, b.first));
  const points = [...new Set(sorted.flatMap((e) => [e.first, e.last + 1n]))].sort(cmp);
  // A max-heap of the entries that started, by score; ones that ended are dropped when they surface.
  const heap: { last: bigint; score: number }[] = [];
  const push = (x: { last: bigint; score: number }) => {
    heap.push(x);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as { score: number }).score >= x.score) break;
      heap[i] = heap[parent] as { last: bigint; score: number };
      i = parent;
    }
    heap[i] = x;
  };
  const pop = () => {
    const end = heap.pop() as { last: bigint; score: number };
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      let best = end.score;
      if (l < heap.length && (heap[l] as { score: number }).score > best)
        [top, best] = [l, (heap[l] as { score: number }).score];
      if (r < heap.length && (heap[r] as { score: number }).score > best) top = r;
      if (top === i) break;
      heap[i] = heap[top] as { last: bigint; score: number };
      i = top;
    }
    heap[i] = end;
  };
  const out: AbuseIPRange[] = [];
  let next = 0;
  for (let i = 0; i < points.length - 1; i++) {
    const at = points[i] as bigint;
    while (next < sorted.length && (sorted[next] as AbuseIPBounds).first === at) {
      const e = sorted[next] as AbuseIPBounds & { score: number };
      push({ last: e.last, score: e.score });
      next++;
    }
    while (heap.length > 0 && (heap[0] as { last: bigint }).last < at) pop();
    const top = heap[0];
    if (!top) continue;
    const last = (points[i + 1] as bigint) - 1n;
    const previous = out[out.length - 1];
    if (previous && previous.score === top.score && previous.last + 1n === at) previous.last = last;
    else out.push({ first: at, last, score: top.score });
  }
  return out;
}

function writeAddress(bytes: Uint8Array, offset: number, value: bigint, size: number): void {
  let v = value;
  for (let i = size - 1; i >= 0; i--) {
    bytes[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function writeCount(bytes: Uint8Array, offset: number, n: number): void {
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setUint32(offset, n, false);
}

/** The file of a list (see the module comment). */
export function encodeAbuseIPFile(ranges: { v4: readonly AbuseIPRange[]; v6: readonly AbuseIPRange[] }): Uint8Array {
  const { v4, v6 } = ranges;
  const bytes = new Uint8Array(
    ABUSE_IP_FILE_HEADER_BYTES + v4.length * ABUSE_IP_FILE_V4_RECORD_BYTES + v6.length * ABUSE_IP_FILE_V6_RECORD_BYTES,
  );
  for (let i = 0; i < ABUSE_IP_FILE_MAGIC.length; i++) bytes[i] = ABUSE_IP_FILE_MAGIC.charCodeAt(i);
  writeCount(bytes, 8, v4.length);
  writeCount(bytes, 12, v6.length);
  let offset = ABUSE_IP_FILE_HEADER_BYTES;
  for (const [list, size] of [
    [v4, 4],
    [v6, 16],
  ] as const) {
    for (const r of list) {
      writeAddress(bytes, offset, r.first, size);
      writeAddress(bytes, offset + size, r.last, size);
      bytes[offset + 2 * size] = r.score;
      offset += 2 * size + 1;
    }
  }
  return bytes;
}

/** The file of entries given as text (tests, and tools that build a list by hand). */
export function abuseIPFileOf(entries: readonly { ip: string; score: number }[]): Uint8Array {
  return encodeAbuseIPFile(
    abuseIPRanges(
      entries.map((e) => {
        const bounds = normalizeAbuseIP(e.ip);
        if (!bounds) throw new Error(`not an abuse IP entry: ${e.ip}`);
        return { ...bounds, score: e.score };
      }),
    ),
  );
}

/** The number of ranges of each family when `bytes` has a file's header and length, else null. */
export function abuseIPFileCounts(bytes: Uint8Array): { v4: number; v6: number } | null {
  if (bytes.length < ABUSE_IP_FILE_HEADER_BYTES) return null;
  for (let i = 0; i < ABUSE_IP_FILE_MAGIC.length; i++) {
    if (bytes[i] !== ABUSE_IP_FILE_MAGIC.charCodeAt(i)) return null;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v4 = view.getUint32(8, false);
  const v6 = view.getUint32(12, false);
  const length = ABUSE_IP_FILE_HEADER_BYTES + v4 * ABUSE_IP_FILE_V4_RECORD_BYTES + v6 * ABUSE_IP_FILE_V6_RECORD_BYTES;
  return bytes.length === length ? { v4, v6 } : null;
}

/** Reads a file back (tests): its ranges, or null when it is not one. */
export function decodeAbuseIPFile(bytes: Uint8Array): { v4: AbuseIPRange[]; v6: AbuseIPRange[] } | null {
  const counts = abuseIPFileCounts(bytes);
  if (!counts) return null;
  const { v4: n4, v6: n6 } = counts;
  const read = (offset: number, size: number) => {
    let v = 0n;
    for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(bytes[offset + i] as number);
    return v;
  };
  let offset = ABUSE_IP_FILE_HEADER_BYTES;
  const family = (n: number, size: number) =>
    Array.from({ length: n }, () => {
      const r = {
        first: read(offset, size),
        last: read(offset + size, size),
        score: bytes[offset + 2 * size] as number,
      };
      offset += 2 * size + 1;
      return r;
    });
  const v4 = family(n4, 4);
  const v6 = family(n6, 16);
  return { v4, v6 };
}
