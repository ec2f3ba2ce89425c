/** The bounds of a node's aggregate batch (analytics-aggregates.ts; its plain check, analytics-aggregates-check.ts). */

/** Most minute records (one minute, one domain) in a batch. */
export const AGGREGATE_BATCH_MINUTES_MAX = 5000;
/** Most collapsed records in a batch. */
export const AGGREGATE_BATCH_COLLAPSED_MAX = 5000;
/** Most bytes of a batch's JSON (the agent splits a larger one; gzip on the wire as events). */
export const AGGREGATE_BATCH_JSON_MAX_BYTES = 16 * 1024 * 1024;
/** Capacity of a heavy-hitter summary: the default the agent lists, and the most a summary may list. */
export const AGGREGATE_TOP_K = 64;
export const AGGREGATE_TOP_K_MAX = 256;
/** Most values of one low-cardinality dimension in a minute record (cities are the most numerous). */
export const AGGREGATE_LOW_VALUES_MAX = 50_000;
