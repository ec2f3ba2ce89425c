import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db/database.js';
import { startClickHouse, startClickHouseCluster, TEST_CLUSTER } from './helpers/clickhouse-server.js';
import { startCluster } from './helpers/pg-cluster.js';

/**
 * Prepares a migrated template database once per run; each test file then gets its own copy
 * (tests/helpers/test-db.ts). PostgreSQL: a throw-away cluster started here on a loopback port
 * (or the server in RAMPART_TEST_PG_URL), template database `rampart_template`. PGlite: a dump
 * of a migrated data directory, loaded into an in-memory instance per test file.
 *
 * The analytics store pairs with the project: the PGlite project runs it on DuckDB in memory, the
 * PostgreSQL project on ClickHouse — a throw-away server started here on loopback ports (or the
 * server in RAMPART_TEST_CLICKHOUSE_URL), a database per store (tests/helpers/test-analytics.ts).
 * With RAMPART_TEST_CLICKHOUSE=cluster (the project server-clickhouse-cluster) two servers are
 * started instead, the two shards of one cluster, and the stores take the cluster's layout.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgliteTemplate: string;
    /** `http://user:password@host:port/` of the ClickHouse server (PostgreSQL project), else "". */
    clickhouseUrl: string;
    /** On a cluster: its name and each shard's `http://user:password@host:port/`, else "" and []. */
    clickhouseCluster: string;
    clickhouseShards: string[];
  }
}

const TEMPLATE_DB = 'rampart_template';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.RAMPART_TEST_DB ?? 'pglite';
  const cleanups: (() => void | Promise<void>)[] = [];

  if (kind === 'postgres') {
    let adminUrl = process.env.RAMPART_TEST_PG_URL;
    if (!adminUrl) {
      const cluster = await startCluster();
      adminUrl = cluster.url;
      cleanups.push(cluster.stop);
    }
    const admin = openPostgres(adminUrl, { max: 1 });
    await admin.db.execute(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.db.execute(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.close();
    const template = openPostgres(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE_DB}`), { max: 1 });
    await template.migrate();
    await template.close();
    project.provide('pgAdminUrl', adminUrl);
    project.provide('pgliteTemplate', '');
    let clickhouseUrl = process.env.RAMPART_TEST_CLICKHOUSE_URL;
    let shards: string[] = [];
    if (project.config.env?.RAMPART_TEST_CLICKHOUSE === 'cluster') {
      try {
        const cluster = await startClickHouseCluster();
        cleanups.push(cluster.stop);
        shards = cluster.urls;
        clickhouseUrl = cluster.urls[0];
      } catch (error) {
        for (const fn of cleanups.reverse()) await fn();
        throw error;
      }
    }
    if (!clickhouseUrl) {
      try {
        const clickhouse = await startClickHouse();
        clickhouseUrl = clickhouse.url;
        cleanups.push(clickhouse.stop);
      } catch (error) {
        // The cluster started above would outlive a setup that fails here.
        for (const fn of cleanups.reverse()) await fn();
        throw error;
      }
    }
    project.provide('clickhouseUrl', clickhouseUrl);
    project.provide('clickhouseCluster', shards.length > 0 ? TEST_CLUSTER : '');
    project.provide('clickhouseShards', shards);
  } else {
    const client = await PGlite.create();
    const db = openPglite(client);
    await db.migrate();
    const dump = await client.dumpDataDir('none');
    await db.close();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rampart-pglite-')), 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    cleanups.push(() => rmSync(path.dirname(file), { recursive: true, force: true }));
    project.provide('pgliteTemplate', file);
    project.provide('pgAdminUrl', '');
    project.provide('clickhouseUrl', '');
    project.provide('clickhouseCluster', '');
    project.provide('clickhouseShards', []);
  }

  return async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
}
