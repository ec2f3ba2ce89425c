export * from './aggregate-batches.js';
export * from './event-counters.js';
export * from './hash.js';
export * from './heavy-hitters.js';
export * from './histogram.js';
export * from './hyperloglog.js';
export * from './interner.js';
export * from './minute-aggregator.js';
