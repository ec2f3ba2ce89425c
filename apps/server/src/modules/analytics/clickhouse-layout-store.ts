/**
 * Where the ClickHouse store's tables live (docs/decisions.md "ClickHouse on a cluster"): on one
 * server, under their own names; on a cluster, each table as `<name>_local` on every shard with a
 * Distributed table `<name>` over them on every shard, so that reads and inserts keep the names
 * and any shard answers for the whole cluster. Every statement that makes or changes the schema
 * goes through `shardStatements`, so a table or view added to the store's DDL gets the cluster's
 * layout without more.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ClusterSpec {
  /** The cluster's name in the servers' `remote_servers`. */
  readonly name: string;
  /** The database, the same on every shard. */
  readonly database: string;
}

/**
 * The Distributed table's sharding key for a table of these columns: `site_id` when it has one
 * (a site's rows on one shard: SummingMergeTree merges a key's partial rows there, and a site's
 * figures are read from it), else the batch's key (the ledgers), else a random shard.
 */
export function shardingKey(columns: string): string {
  if (/(^|,)\s*site_id\s/.test(columns)) return 'site_id';
  if (/(^|,)\s*batch_key\s/.test(columns)) return 'batch_key';
  return 'rand()';
}

const CREATE_TABLE = /^CREATE TABLE IF NOT EXISTS ([A-Za-z_][A-Za-z0-9_]*) \((.*?)\) ENGINE = /s;
const CREATE_VIEW = /^CREATE MATERIALIZED VIEW IF NOT EXISTS ([A-Za-z_][A-Za-z0-9_]*) TO ([A-Za-z_][A-Za-z0-9_]*) AS /s;
const ALTER = /^ALTER TABLE ([A-Za-z_][A-Za-z0-9_]*) /;
const DROP = /^DROP TABLE IF EXISTS ([A-Za-z_][A-Za-z0-9_]*)$/;

/** A table's name on a shard. */
export const localName = (table: string): string => `${table}_local`;

/**
 * What one shard runs for a schema statement of the single-server layout:
 * - `CREATE TABLE t (...) ENGINE = ...` → `t_local` with that engine, and `t` as
 *   `Distributed(cluster, database, t_local, key)` (shardingKey);
 * - `CREATE MATERIALIZED VIEW v TO t AS SELECT ... FROM s` → the view over the shard's `s_local`
 *   into its `t_local` (a view over the Distributed table would see only the inserts made
 *   through that server);
 * - `ALTER TABLE t ...` → on `t_local`, and a column change on `t` too (a Distributed table
 *   keeps its own column list);
 * - `DROP TABLE IF EXISTS t` → `t` and `t_local`;
 * - anything else (CREATE DATABASE) as it is.
 */
export function shardStatements(sql: string, cluster: ClusterSpec): string[] {
  if (!NAME.test(cluster.name) || !NAME.test(cluster.database))
    throw new Error('cluster and database: letters, digits and _');
  const table = CREATE_TABLE.exec(sql);
  if (table) {
    const [whole, name, columns] = table as unknown as [string, string, string];
    const local = localName(name);
    return [
      `CREATE TABLE IF NOT EXISTS ${local} (${columns}) ENGINE = ${sql.slice(whole.length)}`,
      `CREATE TABLE IF NOT EXISTS ${name} AS ${local} ENGINE = Distributed(${cluster.name}, ${cluster.database}, ${local}, ${shardingKey(columns)})`,
    ];
  }
  const view = CREATE_VIEW.exec(sql);
  if (view) {
    const [whole, name, target] = view as unknown as [string, string, string];
    const select = sql
      .slice(whole.length)
      .replace(/ FROM ([A-Za-z_][A-Za-z0-9_]*)/g, (_, source: string) => ` FROM ${localName(source)}`);
    return [`CREATE MATERIALIZED VIEW IF NOT EXISTS ${name} TO ${localName(target)} AS ${select}`];
  }
  const alter = ALTER.exec(sql);
  if (alter) {
    const name = alter[1] as string;
    const rest = sql.slice(alter[0].length);
    const local = `ALTER TABLE ${localName(name)} ${rest}`;
    return /^(ADD|DROP|MODIFY) COLUMN /.test(rest) ? [local, sql] : [local];
  }
  const drop = DROP.exec(sql);
  if (drop) return [sql, `DROP TABLE IF EXISTS ${localName(drop[1] as string)}`];
  if (/^CREATE DATABASE /.test(sql)) return [sql];
  throw new Error(`no cluster layout for: ${sql.slice(0, 80)}`);
}
