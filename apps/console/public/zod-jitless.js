// The console's Content-Security-Policy allows no eval: zod must build its parsers without probing
// `new Function` (a refused probe is reported as a policy violation). This classic script runs
// before the console's modules, so the setting is there before the first schema is made.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
