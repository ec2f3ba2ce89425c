import type { AnalyticsStore, Row } from '../analytics-store.js';
import type { AddressPlan } from './dim-rows.js';
import {
  byText,
  int,
  ints,
  ip4Of,
  KEY_OF,
  keyOf,
  num,
  type Scope,
  type TopOrder,
  type TopRow,
} from './statistics-sql.js';

/**
 * DuckDB's top list of client addresses from its per-site address table (`siteips`; the plan from
 * DimRows.addressPlan), exact. An address's sums in siteips bound
 * what it counts in the range's days from above, and are that count when `exact` and none of
 * its days is outside the range's whole days. The candidates: the addresses whose bound plus
 * their count in the edges (the range's rest, which counts on top) reaches `cut` (at first the
 * bound of the list's length + 10th), and those whose edges alone reach it; each is counted
 * from its siteips row where that is its count, else from the days' rows, plus its edge rows.
 * An address left out counts less than `cut`, so when the list's last counts `cut` or more the
 * list is exact; otherwise `cut` drops to that last count (then every address that may place
 * is a candidate), or to 1 (every address).
 */
export async function topFromSiteIps(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  scope: Scope,
  plan: AddressPlan,
  by: TopOrder,
  limit: number,
): Promise<TopRow[]> {
  const d = store.dialect;
  const sites = `site_id IN (${ints(scope.siteIds)})`;
  const mask = by === 'requests' ? 'days' : `${by}_days`;
  const rowsOf = `FROM siteips WHERE ${sites} AND (${mask} & ${plan.mask}) <> 0`;
  // An address's row, and whether its sums are the range's days' count.
  const whole = `CASE WHEN exact AND (days & ${plan.outside}) = 0 THEN 1 ELSE 0 END AS whole`;
  const rowColumns = `value, requests AS r, bytes_out AS bo, blocked AS bl, ${by} AS o, ${whole}`;
  type Sums = { requests: number; bytesOut: number; blocked: number; ord: number };
  const sumsOf = (row: Row): Sums => ({
    requests: num(row, 'r'),
    bytesOut: num(row, 'bo'),
    blocked: num(row, 'bl'),
    ord: num(row, 'o'),
  });
  const add = (a: Sums | undefined, b: Sums): Sums =>
    a
      ? {
          requests: a.requests + b.requests,
          bytesOut: a.bytesOut + b.bytesOut,
          blocked: a.blocked + b.blocked,
          ord: a.ord + b.ord,
        }
      : b;
  const columns = `sum(requests) AS r, sum(bytes_out) AS bo, sum(blocked) AS bl, sum(${by}) AS o`;
  /** Addresses as a filter: IPv4 ones by their integer, others by their text (hexadecimal in the statement). */
  const matching = (keys: Map<string, number | null>) => {
    const v4 = [...keys.values()].filter((k): k is number => k !== null);
    const other = [...keys].filter(([, k]) => k === null).map(([v]) => d.str(v));
    const parts = [];
    if (v4.length > 0) parts.push(`ip4 IN (${ints(v4)})`);
    if (other.length > 0) parts.push(`(ip4 IS NULL AND value IN (${other.join(', ')}))`);
    return parts.length > 0 ? `(${parts.join(' OR ')})` : 'false';
  };
  // The edges (hours and minutes at the range's ends) count on top of the days: an address counts
  // at most its bound plus its edges' count, so one whose bound is under `cut` less the edges'
  // largest count counts under `cut`, and one without a row of the days its edges' count. Only
  // what the list needs of them leaves the store: that largest count, and the rows of the
  // candidates and of the addresses whose edges alone reach `cut` (a busy site's raw minutes
  // are thousands of addresses, and reading them all out cost more than grouping them).
  const edgeSums = plan.edges ? `SELECT value, ${columns} FROM (${plan.edges}) AS e GROUP BY value` : null;
  let cut: number | null = null;
  for (;;) {
    // The cut (at first the bound of the list's length + 10th) and the edges' largest count, then
    // the addresses whose bound and edges' count reach the cut: the scan filters the bounds by the
    // cut less that count, a constant, before it reads a mask or joins the edges (one statement
    // with the cut as a subquery read the site's addresses twice, masks and all). With one row
    // per address (single) the rows are the bounds, so they come with what counting them needs.
    const bounds = plan.single ? `SELECT ${by} AS u ${rowsOf}` : `SELECT sum(${by}) AS u ${rowsOf} GROUP BY value`;
    const [first] = await store.query(
      `SELECT ${cut === null ? `greatest(1, coalesce((SELECT u FROM (${bounds}) AS b ORDER BY u DESC LIMIT 1 OFFSET ${int(limit + 10)}), 1))` : int(cut)} AS cut, ` +
        `${edgeSums ? `(SELECT coalesce(max(o), 0) FROM (${edgeSums}) AS g)` : '0'} AS most`,
    );
    const f = num(first, 'cut');
    const most = num(first, 'most');
    const reach = most > 0 ? `u + coalesce((SELECT o FROM e WHERE e.value = c.value), 0) >= ${int(f)}` : 'true';
    const bounded = plan.single
      ? `SELECT ${KEY_OF('ip4')} AS k, ${by} AS u, ${rowColumns} FROM siteips WHERE ${sites} AND ${by} >= ${int(f - most)} AND (${mask} & ${plan.mask}) <> 0`
      : `SELECT value, ${KEY_OF('any_value(ip4)')} AS k, sum(${by}) AS u ${rowsOf} GROUP BY value HAVING sum(${by}) >= ${int(f - most)}`;
    // The candidates and the edge rows the list needs (those that alone reach the cut, and the
    // candidates'), in one statement that groups the edges once: both parts read them (as two
    // statements each grouped them again, 10 ms of the busiest site's five hours each).
    const read = await store.query(
      edgeSums
        ? `WITH e AS MATERIALIZED (${edgeSums}), c AS MATERIALIZED (SELECT * FROM (${bounded}) AS c WHERE ${reach}) ` +
            `SELECT 'c' AS src, * FROM c UNION ALL BY NAME SELECT 'e' AS src, * FROM e WHERE o >= ${int(f)} OR value IN (SELECT value FROM c)`
        : `SELECT 'c' AS src, * FROM (${bounded}) AS c`,
    );
    const found = read.filter((row) => row.src === 'c');
    const candidates = new Map<string, number | null>();
    for (const row of found) candidates.set(String(row.value), keyOf(row));
    const edges = new Map<string, Sums>();
    const unread = new Map<string, number | null>(plan.single ? [] : candidates);
    for (const row of read) {
      if (row.src !== 'e') continue;
      const value = String(row.value);
      edges.set(value, sumsOf(row));
      if (!candidates.has(value)) {
        const key = ip4Of(value);
        candidates.set(value, key);
        unread.set(value, key);
      }
    }
    // The candidates' siteips rows (those not read with the bounds): sums, and whether whole.
    const rowsOfCandidates = [
      ...(plan.single ? found : []),
      ...(unread.size === 0
        ? []
        : await store.query(
            `SELECT ${rowColumns} FROM siteips WHERE ${sites} AND (days & ${plan.mask}) <> 0 AND ${matching(unread)}`,
          )),
    ];
    const exact = new Map<string, Sums>();
    const partial = new Set<string>();
    for (const row of rowsOfCandidates) {
      const value = String(row.value);
      if (num(row, 'whole') === 1 && !partial.has(value)) exact.set(value, add(exact.get(value), sumsOf(row)));
      else {
        partial.add(value);
        exact.delete(value);
      }
    }
    if (partial.size > 0) {
      const scan = new Map([...partial].map((v) => [v, candidates.get(v) ?? null] as const));
      for (const row of await store.query(
        `SELECT value, ${columns} FROM (${plan.days}) AS t WHERE ${matching(scan)} GROUP BY value`,
      )) {
        exact.set(String(row.value), sumsOf(row));
      }
    }
    const list: { key: string; sums: Sums }[] = [];
    for (const value of candidates.keys()) {
      let sums = exact.get(value);
      const edge = edges.get(value);
      if (edge) sums = add(sums, edge);
      if (sums && sums.ord > 0) list.push({ key: value, sums });
    }
    list.sort((x, y) => y.sums.ord - x.sums.ord || byText(x.key, y.key));
    const top = list.slice(0, limit);
    const last = top[limit - 1];
    if (f <= 1 || (last && last.sums.ord >= f)) {
      return top.map(({ key, sums }) => ({
        key,
        requests: sums.requests,
        bytesOut: sums.bytesOut,
        blocked: sums.blocked,
      }));
    }
    cut = last ? Math.max(1, last.sums.ord) : 1;
  }
}
