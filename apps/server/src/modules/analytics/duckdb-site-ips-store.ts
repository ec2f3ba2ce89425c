/**
 * DuckDB's `siteips` table (each address of a site once, with its days as bit masks): its DDL and
 * the statements that build, merge and replace it (duckdb-store.ts runs them in its upkeep).
 */
import { SITE_IP_DAYS } from './rollups.js';

/** How often at most the upkeep merges the hours built into siteips (each merge updates the table in place). */
export const SITE_IP_SYNC_SECONDS = 6 * 3600;
/** The decision counters siteips keeps, each with its mask of days (`<counter>_days`). */
export const SITE_IP_DECISIONS = ['blocked', 'blacklisted', 'waf'] as const;
/**
 * `siteips`: each address of a site once — `days`, the mask of the days it sent requests in (and
 * `<decision>_days` those it had that decision in), and its counters summed over the days it was
 * ever merged with (an upper bound of any range's: store/site-address-top.ts ranks candidates by them
 * and counts them exactly from the daily rows); `exact` while no day has left the masks since (the
 * sums are then the masks' days' exactly). Built from dims_1h as hours are built (compact).
 */
export const SITE_IP_DDL = `CREATE TABLE IF NOT EXISTS siteips (site_id INTEGER NOT NULL, value VARCHAR NOT NULL, ip4 UINTEGER,
  days UHUGEINT NOT NULL, ${SITE_IP_DECISIONS.map((c) => `${c}_days UHUGEINT NOT NULL`).join(', ')},
  requests BIGINT NOT NULL, ${SITE_IP_DECISIONS.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, bytes_out BIGINT NOT NULL,
  exact BOOLEAN NOT NULL)`;
/** The bit of a unix time's UTC day in siteips's masks, as SQL. */
export const DAY_BIT = (t: string) => `(1::UHUGEINT << ((${t} // 86400) % ${SITE_IP_DAYS})::UHUGEINT)`;
/** The bit of a UTC day (unix seconds of its start, or any time in it) in siteips's masks. */
export const siteIpDayBit = (t: number): bigint => 1n << BigInt(Math.floor(t / 86_400) % SITE_IP_DAYS);
export const ALL_DAYS = (1n << BigInt(SITE_IP_DAYS)) - 1n;
/**
 * siteips rows of `source` (columns site_id, value, ip4, bucket, requests and the decisions; any
 * number of rows per address and day): per address, its days' bits and its sums.
 */
export const SITE_IP_ROWS = (source: string) => `SELECT site_id, value, any_value(ip4) AS ip4, bit_or(bit) AS days,
  ${SITE_IP_DECISIONS.map((c) => `bit_or(CASE WHEN ${c} > 0 THEN bit ELSE 0::UHUGEINT END) AS ${c}_days`).join(', ')},
  sum(requests)::BIGINT AS requests, ${SITE_IP_DECISIONS.map((c) => `sum(${c})::BIGINT AS ${c}`).join(', ')},
  sum(bytes_out)::BIGINT AS bytes_out, true AS exact
  FROM (SELECT site_id, value, any_value(ip4) AS ip4, ${DAY_BIT('any_value(bucket)')} AS bit, sum(requests) AS requests,
    ${SITE_IP_DECISIONS.map((c) => `sum(${c}) AS ${c}`).join(', ')}, sum(bytes_out) AS bytes_out FROM ${source} GROUP BY site_id, value, bucket // 86400)
  GROUP BY site_id, value`;
export const SITE_IP_MASKS = ['days', ...SITE_IP_DECISIONS.map((c) => `${c}_days`)];
/**
 * siteips merged into one row per address, the bits of `clear` dropped from every mask (a day
 * starting again SITE_IP_DAYS days later, or days pruned) and the rows of `add` (SITE_IP_ROWS's
 * source) added; an address left without a day goes.
 */
export const MERGE_SITE_IPS = (add: string | null, clear: bigint) => {
  const keep = `'${ALL_DAYS ^ clear}'::UHUGEINT`;
  return [
    `CREATE TEMP TABLE siteips_merged AS SELECT site_id, value, any_value(ip4) AS ip4,
       ${SITE_IP_MASKS.map((m) => `bit_or(${m}) AS ${m}`).join(', ')},
       ${['requests', ...SITE_IP_DECISIONS, 'bytes_out'].map((c) => `sum(${c})::BIGINT AS ${c}`).join(', ')}, bool_and(exact) AS exact
     FROM (SELECT site_id, value, ip4, ${SITE_IP_MASKS.map((m) => `${m} & ${keep} AS ${m}`).join(', ')}, requests, ${SITE_IP_DECISIONS.join(', ')},
         bytes_out, exact AND (days & '${clear}'::UHUGEINT) = 0 AS exact FROM siteips
       ${add ? `UNION ALL ${SITE_IP_ROWS(add)}` : ''})
     GROUP BY site_id, value HAVING bit_or(days) <> 0 ORDER BY site_id`,
    ...REPLACE_SITE_IPS('SELECT * FROM siteips_merged'),
    'DROP TABLE siteips_merged',
  ];
};
/**
 * The rows of `add` (SITE_IP_ROWS's source) added to siteips in place, one row per address kept
 * (siteips merged before): the addresses it has are updated, the others inserted at the table's
 * end. The table's other rows stay as they are: a full rewrite of a week of 10 million events'
 * 5.7 million rows cost 11 s of CPU, too much for every merge (every 6 hours); it is done when a
 * day starts (MERGE_SITE_IPS), which also puts each site's rows together again.
 */
export const UPSERT_SITE_IPS = (add: string) => {
  const statements: string[] = [];
  const sums = ['requests', ...SITE_IP_DECISIONS, 'bytes_out'];
  statements.push(
    `CREATE TEMP TABLE siteips_new AS ${SITE_IP_ROWS(add)}`,
    `UPDATE siteips SET ${SITE_IP_MASKS.map((m) => `${m} = siteips.${m} | n.${m}`).join(', ')},
       ${sums.map((c) => `${c} = siteips.${c} + n.${c}`).join(', ')}
     FROM siteips_new AS n WHERE siteips.site_id = n.site_id AND siteips.value = n.value`,
    `INSERT INTO siteips SELECT n.* FROM siteips_new AS n
     WHERE NOT EXISTS (SELECT 1 FROM siteips AS s WHERE s.site_id = n.site_id AND s.value = n.value)`,
    'DROP TABLE siteips_new',
  );
  return statements;
};
/**
 * siteips replaced by the rows of `select` (a new table rather than its rows deleted: a whole
 * table's blocks are freed at the next checkpoint, deleted rows' stay in the file), merged: no
 * address has two rows (store/statistics-reads.ts counts rows then).
 */
export const REPLACE_SITE_IPS = (select: string) => [
  'DROP TABLE siteips',
  SITE_IP_DDL,
  `INSERT INTO siteips ${select}`,
  `INSERT OR REPLACE INTO rolled VALUES ('siteips', 0)`,
];
/** The address rows of dims_1h in [from, to), as SITE_IP_ROWS's source. */
export const HOURLY_IPS = (from: number, to: number) =>
  `(SELECT site_id, value, ip4, bucket, requests, ${SITE_IP_DECISIONS.join(', ')}, bytes_out FROM dims_1h WHERE dim = 'ip' AND bucket >= ${from} AND bucket < ${to})`;

/** The first day siteips's masks hold when built to `to` (SITE_IP_DAYS days up to the one its last hour is in). */
export function siteIpsFrom(to: number): number {
  const last = to - 1 - ((to - 1) % 86_400);
  return last - (SITE_IP_DAYS - 1) * 86_400;
}

/**
 * The statements that bring siteips from `mark` (0: nothing; `merged`: no late partial rows) to
 * the dimensions' mark `to` (duckdb-store.ts syncSiteIps), null when it need not move yet: the
 * hours built since merged in (the days that started since dropping their bit's older day), or —
 * far behind, or `rebuild` — built again from the dimension tables (their whole days from
 * sitedims_1d, the last day's hours from dims_1h); late events' partial rows merged either way.
 */
export function siteIpsSync(to: number, mark: number, merged: boolean, rebuild: boolean): string[] | null {
  if (to === 0 || (!rebuild && mark === to && merged)) return null;
  // Every SITE_IP_SYNC_SECONDS, and when a day starts (the one before whole in the masks): the
  // hours after are read from dims_1h meanwhile (store/dim-rows.ts, addressPlan).
  const dayOf = (t: number) => Math.floor((t - 1) / 86_400);
  if (!rebuild && merged && mark > 0) {
    if (to - mark < SITE_IP_SYNC_SECONDS && dayOf(to) === dayOf(mark)) return null;
  }
  let statements: string[];
  if (rebuild || mark === 0 || to - mark > 64 * 86_400) {
    const from = siteIpsFrom(to);
    const dayEnd = to - (to % 86_400);
    const columns = `site_id, value, ip4, bucket, requests, ${SITE_IP_DECISIONS.join(', ')}, bytes_out`;
    statements = REPLACE_SITE_IPS(
      `${SITE_IP_ROWS(`(SELECT ${columns} FROM sitedims_1d WHERE dim = 'ip' AND bucket >= ${from} AND bucket < ${dayEnd}
         UNION ALL SELECT ${columns} FROM dims_1h WHERE dim = 'ip' AND bucket >= ${Math.max(dayEnd, from)} AND bucket < ${to})`)} ORDER BY site_id`,
    );
  } else {
    let clear = 0n;
    for (let day = Math.ceil(mark / 86_400) * 86_400; day < to; day += 86_400) clear |= siteIpDayBit(day);
    if (clear !== 0n) {
      // A day started: the table rewritten, merged and ordered by site, once a day. Updated in
      // place, new addresses go to its end at every merge, and after a week of them each site's
      // rows lay in every row group (the bench's busiest site's distinct addresses 145 ms p95).
      statements = MERGE_SITE_IPS(HOURLY_IPS(mark, to), clear);
    } else {
      // Late events' partial rows merged first (the update adds to every row of an address).
      statements = merged ? [] : MERGE_SITE_IPS(null, 0n);
      if (mark < to) statements.push(...UPSERT_SITE_IPS(HOURLY_IPS(mark, to)));
    }
  }
  return statements;
}
