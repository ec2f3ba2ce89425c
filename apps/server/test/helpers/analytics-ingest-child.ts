/**
 * A process that ingests batches into a DuckDB analytics store until it is killed
 * (analytics-store.test.ts, "keeps every batch it answered across a kill -9"). Arguments: the
 * store's directory and the number of batches (crashBatch's); four senders send them at once, each
 * its share one after another, into groups of two batches (many transactions, so the kill falls
 * within one), and the id of each batch the store answered is printed on a line of its own.
 */
import { DuckDbStore } from '../../src/modules/analytics/duckdb-store.js';
import { CRASH_BATCH_EVENTS, crashBatch } from './analytics-events.js';

const [dir, count] = process.argv.slice(2);
const store = new DuckDbStore(dir as string, 2 * CRASH_BATCH_EVENTS);
await store.open();
const senders = 4;
await Promise.all(
  Array.from({ length: senders }, async (_, s) => {
    for (let i = s; i < Number(count); i += senders) {
      const batch = crashBatch(i);
      await store.ingest(batch);
      process.stdout.write(`${batch.batchId}\n`);
    }
  }),
);
await store.close();
