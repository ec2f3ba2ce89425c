import { parseCIDR, parseIP, parseIPRange } from '../validators/ip.js';

/** One family's ranges as the edge reads them (edge/data-plane.ts `ipRanges`). */
export type HexRange = [string, string];

/** The first and last address of an IP list entry (address, `a-b` range or CIDR), or null. */
export function ipEntryBounds(entry: string): { version: 4 | 6; from: bigint; to: bigint } | null {
  const ip = parseIP(entry);
  if (ip) return { version: ip.version, from: ip.value, to: ip.value };
  const range = parseIPRange(entry);
  if (range) return { version: range.from.version, from: range.from.value, to: range.to.value };
  const cidr = parseCIDR(entry);
  if (!cidr) return null;
  const bits = BigInt(cidr.ip.version === 4 ? 32 : 128);
  const host = bits - BigInt(cidr.prefix);
  const from = (cidr.ip.value >> host) << host;
  return { version: cidr.ip.version, from, to: from + (1n << host) - 1n };
}

/**
 * The entries of an IP list as sorted, merged ranges per family, in the edge's hex form. Entries
 * that are not valid are skipped (the API refused them before they were stored).
 */
export function ipListRanges(entries: readonly string[]): { v4: HexRange[]; v6: HexRange[] } {
  const byFamily: Record<4 | 6, { from: bigint; to: bigint }[]> = { 4: [], 6: [] };
  for (const entry of entries) {
    const bounds = ipEntryBounds(entry);
    if (bounds) byFamily[bounds.version].push(bounds);
  }
  const merge = (ranges: { from: bigint; to: bigint }[], digits: number): HexRange[] => {
    ranges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    const out: { from: bigint; to: bigint }[] = [];
    for (const r of ranges) {
      const last = out[out.length - 1];
      if (last && r.from <= last.to + 1n) {
        if (r.to > last.to) last.to = r.to;
      } else {
        out.push({ ...r });
      }
    }
    const hex = (n: bigint) => n.toString(16).padStart(digits, '0');
    return out.map((r) => [hex(r.from), hex(r.to)]);
  };
  return { v4: merge(byFamily[4], 8), v6: merge(byFamily[6], 32) };
}
