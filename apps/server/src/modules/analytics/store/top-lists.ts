import type { AnalyticsStore, Row } from '../analytics-store.js';
import { type Dim, isHighDim } from '../rollups.js';
import type { DimRows } from './dim-rows.js';
import { topFromSiteIps } from './site-address-top.js';
import {
  byText,
  int,
  ip4Text,
  num,
  type Range,
  type Scope,
  type TopOrder,
  type TopRow,
  topRow,
} from './statistics-sql.js';

/**
 * The statistics' top lists: requests, bytes and decisions per value of a dimension, the largest
 * first, by the way each engine ranks them best (SqlDialect): DuckDB's per-site address table and
 * integer addresses, ClickHouse's hashes, and the strings grouped where neither answers.
 */
export class TopLists {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly rows: DimRows,
  ) {}

  /** Requests, bytes and decisions per value of a dimension, `by` the largest first. */
  async top(scope: Scope, range: Range, dim: Dim, by: TopOrder, limit: number): Promise<TopRow[]> {
    if (scope.siteIds.length === 0) return [];
    const plan = dim === 'ip' ? this.rows.addressPlan(scope, range, true) : null;
    if (plan) return topFromSiteIps(this.store, scope, plan, by, limit);
    if (this.rows.ipKeys(dim) && by === 'requests') {
      const addresses = await this.topAddresses(scope, range, limit);
      if (addresses) return addresses;
    }
    const nonEmpty =
      dim === 'referer' || dim === 'country' || dim === 'city' || dim === 'fileType' ? `value <> ''` : '';
    const columns = `sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked, sum(${by}) AS ord`;
    const rowsOf = this.rows.dimRows(scope, range, dim);
    if (isHighDim(dim) && this.store.dialect.hash64) {
      const ranked = await this.topByHash(rowsOf, nonEmpty, by, limit);
      if (ranked) return ranked;
    }
    let where = nonEmpty;
    if (by !== 'requests') {
      // Ordered by a decision: the values with one are found among the rows that count one (few
      // beside all of a busy site's addresses), and only their rows are summed in full.
      const decided = `SELECT value FROM (${rowsOf}) AS d WHERE ${by} > 0${nonEmpty ? ` AND ${nonEmpty}` : ''} GROUP BY value ORDER BY sum(${by}) DESC, value LIMIT ${int(limit)}`;
      where = `value IN (${decided})`;
    }
    const rows = await this.store.query(
      `SELECT value, ${columns} FROM (${rowsOf}) AS t${where ? ` WHERE ${where}` : ''} GROUP BY value ORDER BY ord DESC, value LIMIT ${int(limit)}`,
    );
    return rows.map(topRow);
  }

  /**
   * {@link top} of a high-cardinality dimension where the store hashes a value for less than it
   * groups it (SqlDialect.hash64): the values' hashes ranked by `by` (the first `limit + 10`, and
   * the count of the one after them), then every value of those hashes counted exactly, by its
   * text. A value of any other hash counts at most what its hash counts, so at most the one after
   * them: when the list's last counts more than that, the list is exact (two values sharing a hash
   * are each counted apart). Otherwise (ties reaching past the hashes read: a small site's values
   * seen once or twice) null, and the caller groups the strings.
   */
  private async topByHash(rowsOf: string, nonEmpty: string, by: TopOrder, limit: number): Promise<TopRow[] | null> {
    const d = this.store.dialect;
    const hash = d.hash64 as (expr: string) => string;
    const fetch = limit + 10;
    // Ordered by a decision: only the rows that count one.
    const filter = [nonEmpty, by === 'requests' ? '' : `${by} > 0`].filter((c) => c !== '').join(' AND ');
    const ranked = await this.store.query(
      `SELECT ${d.text('h')} AS hk, o FROM (SELECT ${hash('value')} AS h, sum(${by}) AS o FROM (${rowsOf}) AS t` +
        `${filter ? ` WHERE ${filter}` : ''} GROUP BY h) AS g ORDER BY o DESC LIMIT ${int(fetch + 1)}`,
    );
    if (ranked.length === 0) return [];
    const hashes = ranked.slice(0, fetch).map((row) => {
      const text = String(row.hk);
      if (!/^[0-9]{1,20}$/.test(text)) throw new Error(`not a 64-bit hash: ${text}`);
      return text;
    });
    // The most a value of a hash not read counts (none: every hash was read).
    const next = ranked.length > fetch ? num(ranked[fetch], 'o') : 0;
    const rows = await this.store.query(
      `SELECT value, sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked, sum(${by}) AS ord ` +
        `FROM (${rowsOf}) AS t WHERE ${hash('value')} IN (${hashes.join(', ')})${nonEmpty ? ` AND ${nonEmpty}` : ''} GROUP BY value`,
    );
    const list = rows
      .filter((row) => num(row, 'ord') > 0)
      .sort((x, y) => num(y, 'ord') - num(x, 'ord') || byText(String(x.value), String(y.value)))
      .slice(0, limit);
    const last = list[limit - 1];
    if (ranked.length > fetch && !(last && num(last, 'ord') > next)) return null;
    return list.map(topRow);
  }

  /**
   * {@link top} of client addresses by requests where the store keeps them as integers
   * (SqlDialect.ip4): the IPv4 rows grouped by the integer and the others by their text, apart (a
   * string key, even one NULL nearly everywhere, costs the grouping what strings cost), the largest
   * first; the order among equals — the addresses' text — is put in here, from a few more rows than
   * the list holds. When values tied with the list's last reach past those rows, null: the caller
   * ranks the strings. (Lists ordered by a decision keep the strings: they group only the rows
   * with one, and two passes over the integers measured slower.)
   */
  private async topAddresses(scope: Scope, range: Range, limit: number): Promise<TopRow[] | null> {
    const d = this.store.dialect;
    const rowsOf = this.rows.dimRows(scope, range, 'ip');
    const sums = 'sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked';
    const fetch = limit * 2 + 10;
    // k -1: no integer (a NULL would read as 0, an address).
    const rows = await this.store.query(
      `SELECT * FROM (SELECT ${d.int64('ip4')} AS k, '' AS other, ${sums} FROM (${rowsOf}) AS a WHERE ip4 IS NOT NULL GROUP BY ip4 ` +
        `UNION ALL SELECT ${d.int64('-1')} AS k, value AS other, ${sums} FROM (${rowsOf}) AS b WHERE ip4 IS NULL GROUP BY value) AS g ` +
        `ORDER BY t_requests DESC LIMIT ${int(fetch)}`,
    );
    if (rows.length === fetch && num(rows[fetch - 1], 't_requests') >= num(rows[limit - 1], 't_requests')) return null;
    return rows
      .map((row): Row => ({ ...row, value: num(row, 'k') >= 0 ? ip4Text(num(row, 'k')) : String(row.other) }))
      .sort((x, y) => num(y, 't_requests') - num(x, 't_requests') || byText(String(x.value), String(y.value)))
      .slice(0, limit)
      .map(topRow);
  }
}
