import pkg from '../../package.json' with { type: 'json' };

/** Set by build.mjs when a bundle is built for another version (`RAMPART_EDGE_VERSION`). */
declare const RAMPART_EDGE_BUILD_VERSION: string | undefined;

/**
 * The agent's version (apps/edge/package.json, or the one the bundle was built for), reported at
 * registration and in every status; the bundle's second line names it too (agent releases).
 */
export const AGENT_VERSION: string =
  typeof RAMPART_EDGE_BUILD_VERSION === 'string' ? RAMPART_EDGE_BUILD_VERSION : pkg.version;
