export * from './domain.js';
export * from './fields.js';
export * from './ip.js';
export * from './lists.js';
export * from './origin.js';
export * from './text.js';
export * from './url.js';
export * from './zod.js';
