import pkg from '../../package.json' with { type: 'json' };

/** The agent's version (apps/edge/package.json), reported at registration and in every status. */
export const AGENT_VERSION: string = pkg.version;
