import type { PGlite } from '@electric-sql/pglite';
import { PassLoop } from '../pass-loop.js';

/** How often the embedded database's tables are looked at by default (PostgreSQL's autovacuum_naptime). */
export const EMBEDDED_VACUUM_TICK_MS = 60_000;

/**
 * When a table is vacuumed or analysed: PostgreSQL's autovacuum defaults (autovacuum_vacuum_threshold
 * and _scale_factor, the insert ones, the analyze ones, and a freeze age under
 * autovacuum_freeze_max_age's 200 million so that the pass freezes before PostgreSQL would insist).
 */
const THRESHOLDS = {
  vacuum: { base: 50, scale: 0.2 },
  inserts: { base: 1000, scale: 0.2 },
  analyze: { base: 50, scale: 0.1 },
  freezeAge: 150_000_000,
} as const;

/** What one pass did to one table, and how long it took. */
export interface VacuumedTable {
  readonly table: string;
  readonly action: 'vacuum' | 'analyze';
  readonly ms: number;
}

/**
 * Autovacuum for the embedded database. PGlite runs PostgreSQL as one single-user backend: no
 * autovacuum worker ever runs there (docs/decisions.md "Vacuum on the embedded database"). Without
 * this, no table is ever analysed (the planner never has statistics: a table written at runtime
 * keeps `reltuples` -1), the dead rows of the tables a change inserts into and deletes from (the
 * data plane's dirty marks, its log) stay in their pages and are read by every scan, and nothing
 * freezes old rows, so the transaction counter would in the end reach the wrap-around stop. Each pass
 * picks the tables as autovacuum would (pg_stat_user_tables against its default thresholds) and
 * runs `VACUUM (ANALYZE)` or `ANALYZE` on them one at a time (each waits for the transaction running
 * and holds the database while it runs: the thresholds make a large table's turn rare).
 */
export class EmbeddedVacuum {
  private readonly loop: PassLoop;
  /** Set at shutdown: a pass ends after the table it is at. */
  private stopping = false;

  constructor(
    private readonly client: Pick<PGlite, 'query' | 'exec'>,
    onError: (error: unknown) => void,
    /** Told what each pass did (the server logs it). */
    private readonly done: (tables: readonly VacuumedTable[]) => void = () => {},
  ) {
    this.loop = new PassLoop(async () => {
      await this.pass();
    }, onError);
  }

  start(tickMs: number): void {
    this.loop.start(tickMs);
  }

  stop(): Promise<void> {
    this.stopping = true;
    return this.loop.stop();
  }

  /** Vacuums and analyses the tables that are due; answers what it did. */
  async pass(): Promise<VacuumedTable[]> {
    const { vacuum, inserts, analyze, freezeAge } = THRESHOLDS;
    // Names quoted by the catalog's own format('%I'): nothing but a table's name reaches the statement.
    const due = await this.client.query<{ name: string; vacuum: boolean; analyze: boolean }>(
      `SELECT format('%I.%I', s.schemaname, s.relname) AS name,
         (s.n_dead_tup > $1::float8 + $2::float8 * s.n_live_tup
           OR s.n_ins_since_vacuum > $3::float8 + $4::float8 * s.n_live_tup
           OR age(c.relfrozenxid) > $5::int) AS vacuum,
         (s.n_mod_since_analyze > $6::float8 + $7::float8 * s.n_live_tup OR c.reltuples < 0) AS analyze
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       ORDER BY s.n_dead_tup DESC, s.relname`,
      [vacuum.base, vacuum.scale, inserts.base, inserts.scale, freezeAge, analyze.base, analyze.scale],
    );
    const did: VacuumedTable[] = [];
    for (const table of due.rows) {
      if (!table.vacuum && !table.analyze) continue;
      if (this.stopping) break;
      const started = performance.now();
      await this.client.exec(table.vacuum ? `VACUUM (ANALYZE) ${table.name}` : `ANALYZE ${table.name}`);
      did.push({
        table: table.name,
        action: table.vacuum ? 'vacuum' : 'analyze',
        ms: Math.round(performance.now() - started),
      });
    }
    if (did.length > 0) this.done(did);
    return did;
  }
}
