import { AGGREGATE_HOURS } from './aggregate-duckdb-store.js';
import { DUCKDB_DIALECT, IP4_OF_VALUE } from './duckdb-schema-store.js';
import { DIM_COUNTERS, HIGH_DIM_COLUMNS, lowDimValueSql, UPSTREAM_SQL } from './rollups.js';

/**
 * The embedded store's rollups in SQL (duckdb-store.ts): a group of events' time rollups and late
 * dimensions from its staging table, and the hours and days of dimensions built from events.
 */

const UPSTREAM = UPSTREAM_SQL;
/** rollups.ts's eventCounters, in SQL over ingest_staging. */
const ROLLUP_SELECT = (
  unit: number,
  site = false,
) => `SELECT (ts // ${unit}) * ${unit} AS bucket, site_id, ${site ? '0, 0' : 'domain_id, zone_id'},
  count(*), sum(bytes_in), sum(bytes_out), sum(hit), sum(hit * bytes_out), sum(blocked), sum(blacklisted),
  sum(CASE WHEN status = 444 THEN 1 ELSE 0 END), sum(waf),
  sum(CASE WHEN ${UPSTREAM} THEN 1 ELSE 0 END),
  sum(CASE WHEN ${UPSTREAM} AND upstream_status >= 500 THEN 1 ELSE 0 END),
  sum(CASE WHEN status // 100 = 2 THEN 1 ELSE 0 END), sum(CASE WHEN status // 100 = 3 THEN 1 ELSE 0 END),
  sum(CASE WHEN status // 100 = 4 THEN 1 ELSE 0 END), sum(CASE WHEN status // 100 = 5 THEN 1 ELSE 0 END)
  FROM ingest_staging WHERE counted = 1 GROUP BY ${site ? '1, 2' : '1, 2, 3, 4'}`;
/**
 * rollups.ts's dimensions, in SQL over `source` (a table and its filter): one scan with a grouping
 * set per dimension (`grouping()` says which set a row is of: its bit is 0 for the dimension the
 * row counts); the columns of the dimension tables, in their order (`ip4` last).
 */
const DIM_SELECT = (unit: number, dims: Readonly<Record<string, string>>, source: string) => {
  const values = Object.entries(dims);
  const all = (1 << values.length) - 1;
  const which = values.map(([dim], i) => `WHEN g = ${all ^ (1 << (values.length - 1 - i))} THEN '${dim}'`).join(' ');
  const v = values.map((_, i) => `v${i}`);
  return `SELECT *, ${IP4_OF_VALUE} FROM (SELECT b, site_id, domain_id, zone_id, CASE ${which} END AS dim, COALESCE(${v.join(', ')}) AS value, r, bo, bl, bk, w FROM (
  SELECT (ts // ${unit}) * ${unit} AS b, site_id, domain_id, zone_id, ${values.map(([, sql], i) => `${sql} AS v${i}`).join(', ')},
    grouping(${v.join(', ')}) AS g, count(*) AS r, sum(bytes_out) AS bo, sum(blocked) AS bl, sum(blacklisted) AS bk, sum(waf) AS w
  FROM ${source} GROUP BY GROUPING SETS (${v.map((x) => `(b, site_id, domain_id, zone_id, ${x})`).join(', ')})))`;
};
const LOW_DIMS_SQL = lowDimValueSql(DUCKDB_DIALECT);
/** Every group's statements: the time rollups from its events, then the events themselves. */
export const FROM_STAGING = [
  `INSERT INTO rollup_1m ${ROLLUP_SELECT(60)}`,
  `INSERT INTO rollup_5m ${ROLLUP_SELECT(300)}`,
  `INSERT INTO rollup_1h ${ROLLUP_SELECT(3600)}`,
  `INSERT INTO rollup_1d ${ROLLUP_SELECT(86_400)}`,
  `INSERT INTO siterollup_5m ${ROLLUP_SELECT(300, true)}`,
  'INSERT INTO events SELECT * FROM ingest_staging',
  'DELETE FROM ingest_staging',
];
/** The dimension counters summed, as BIGINT, from these columns (in DIM_COUNTERS's order). */
const SUMS = (columns: string) =>
  columns
    .split(', ')
    .map((c) => `sum(${c})::BIGINT`)
    .join(', ');
/**
 * A group's late events (before `hours`, the whole hours whose dimensions are built, or `days`,
 * the whole days): their dimensions are added to the built ones as partial rows.
 */
export const LATE_DIMS = (hours: number, days: number) => {
  const late = [
    `INSERT INTO lowdims_1h ${DIM_SELECT(3600, LOW_DIMS_SQL, `ingest_staging WHERE counted = 1 AND ts < ${hours}`)}`,
    `INSERT INTO dims_1h ${DIM_SELECT(3600, HIGH_DIM_COLUMNS, `ingest_staging WHERE counted = 1 AND ts < ${hours}`)}`,
  ];
  if (days > 0) {
    const day = DIM_SELECT(86_400, HIGH_DIM_COLUMNS, `ingest_staging WHERE counted = 1 AND ts < ${days}`);
    late.push(
      `INSERT INTO dims_1d ${day}`,
      `INSERT INTO sitedims_1d SELECT b, site_id, 0, 0, d, v, ${SUMS('r, bo, bl, bk, w')}, ip FROM (${day})
         AS x(b, site_id, domain_id, zone_id, d, v, r, bo, bl, bk, w, ip) GROUP BY b, site_id, d, v, ip`,
    );
  }
  return late;
};
/** The hourly dimensions of the events in [from, to), whole hours: replace whatever those hours held. */
export const ROLL_HOURS = (from: number, to: number) => {
  const events = `events WHERE counted = 1 AND ts >= ${from} AND ts < ${to}`;
  return [
    `DELETE FROM lowdims_1h WHERE bucket >= ${from} AND bucket < ${to}`,
    `DELETE FROM dims_1h WHERE bucket >= ${from} AND bucket < ${to}`,
    // Ordered by site (as compaction orders its ranges): a site's rows then sit in few row groups.
    `INSERT INTO lowdims_1h ${DIM_SELECT(3600, LOW_DIMS_SQL, events)} ORDER BY site_id, b`,
    `INSERT INTO dims_1h ${DIM_SELECT(3600, HIGH_DIM_COLUMNS, events)} ORDER BY site_id, b`,
    ...AGGREGATE_HOURS(from, to, IP4_OF_VALUE), // The nodes' aggregates' hours too (aggregate-duckdb-store.ts).
  ];
};
/**
 * The day `day` of the high-cardinality dimensions, summed from its hours (all built by now), and
 * per whole site from that.
 */
export const ROLL_DAY = (day: number) => {
  const sums = SUMS(DIM_COUNTERS.join(', '));
  return [
    `DELETE FROM dims_1d WHERE bucket = ${day}`,
    `INSERT INTO dims_1d SELECT ${day}, site_id, domain_id, zone_id, dim, value, ${sums}, ip4 FROM dims_1h
       WHERE bucket >= ${day} AND bucket < ${day + 86_400} GROUP BY site_id, domain_id, zone_id, dim, value, ip4 ORDER BY site_id`,
    `DELETE FROM sitedims_1d WHERE bucket = ${day}`,
    `INSERT INTO sitedims_1d SELECT ${day}, site_id, 0, 0, dim, value, ${sums}, ip4 FROM dims_1d
       WHERE bucket = ${day} GROUP BY site_id, dim, value, ip4 ORDER BY site_id, dim`,
  ];
};
