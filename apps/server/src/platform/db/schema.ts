import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The config store's schema: one set of tables for PGlite and PostgreSQL. Change it here, then
 * run `npm run db:generate -w @rampart/server` to write the next migration into ./drizzle.
 * Migrations are expand-only within a release so that the previous release still runs on them.
 */

/** Installation-wide settings as JSON documents, one row per key (`instance`, `branding`, ...). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
