import { describe, expect, it } from 'vitest';
import { isRepeatable } from '../src/modules/analytics/clickhouse-http-store.js';
import { DAILY_FROM_HOURS, SITES_FROM_DOMAINS } from '../src/modules/analytics/clickhouse-schema-store.js';

// Which statements the ClickHouse client may send again after a reused connection broke without
// an answer (the server may have run it): reads and CREATE … IF NOT EXISTS only.

describe('isRepeatable', () => {
  it('takes reads and idempotent CREATEs, whatever comes before their first word', () => {
    for (const sql of [
      'SELECT 1 AS one',
      '  select count() FROM t',
      'WITH 1 AS x SELECT x',
      'SHOW TABLES',
      'DESCRIBE TABLE t',
      'DESC t',
      'EXISTS TABLE t',
      'EXPLAIN SELECT 1',
      '-- a note\nSELECT 1',
      '/* a note */ SELECT 1',
      'CREATE DATABASE IF NOT EXISTS rampart',
      'CREATE TABLE IF NOT EXISTS t (a UInt8) ENGINE = Memory',
      'create materialized view if not exists v TO t AS SELECT 1',
    ]) {
      expect(isRepeatable(sql), sql).toBe(true);
    }
  });

  it('refuses every write, and DDL that is not idempotent', () => {
    for (const sql of [
      DAILY_FROM_HOURS,
      SITES_FROM_DOMAINS,
      'INSERT INTO t SELECT * FROM u',
      'INSERT INTO t FORMAT JSONEachRow',
      '/* SELECT */ INSERT INTO t VALUES (1)',
      '-- SELECT\nINSERT INTO t VALUES (1)',
      'ALTER TABLE t DELETE WHERE a < 1',
      'ALTER TABLE t DROP PARTITION 202611',
      'OPTIMIZE TABLE t FINAL',
      'TRUNCATE TABLE t',
      'DROP TABLE t',
      'RENAME TABLE t TO u',
      'CREATE TABLE t (a UInt8) ENGINE = Memory',
      'CREATE OR REPLACE TABLE IF NOT EXISTS t AS SELECT 1',
      'SELECTED',
      '',
    ]) {
      expect(isRepeatable(sql), sql).toBe(false);
    }
  });
});
