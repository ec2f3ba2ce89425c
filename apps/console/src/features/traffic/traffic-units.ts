/** Bytes in a GB: decimal, as every size in the console (spec part 1 §9). */
export const GB = 1_000_000_000;

/** GB typed in a form → whole bytes for the API. */
export function gbToBytes(gb: number | null | undefined): number {
  return Math.round((gb ?? 0) * GB);
}

/** Bytes from the API → GB for a form (up to three decimals, as the form edits them). */
export function bytesToGb(bytes: number): number {
  return Math.round((bytes / GB) * 1000) / 1000;
}

/** A calendar month as `YYYY-MM`. */
export function monthKey(year: number, month: number): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** `YYYY-MM` → year and month, or undefined. */
export function parseMonth(key: string | undefined): { year: number; month: number } | undefined {
  const match = /^(\d{4})-(\d{2})$/.exec(key ?? '');
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : undefined;
}

/** The months around now (UTC), newest first: `ahead` months after this one, `back` before it. */
export function monthChoices(now: number, back: number, ahead = 0): string[] {
  const d = new Date(now);
  const out: string[] = [];
  for (let offset = ahead; offset >= -back; offset--) {
    const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
    out.push(monthKey(at.getUTCFullYear(), at.getUTCMonth() + 1));
  }
  return out;
}
