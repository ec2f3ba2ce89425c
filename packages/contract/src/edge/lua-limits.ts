import * as constants from '../constants.js';
import * as domainAccess from '../routes/domain-access.js';
import * as frequency from '../routes/firewall-frequency.js';
import * as geos from '../routes/firewall-geos.js';
import * as headers from '../routes/firewall-headers.js';
import * as lists from '../routes/firewall-lists.js';
import * as userAgents from '../routes/firewall-user-agents.js';
import * as acl from '../routes/site-module-acl.js';
import * as moduleSchemas from '../routes/site-module-schemas.js';
import * as challenge from './challenge.js';
import * as dataPlaneFirewall from './data-plane-firewall.js';

/**
 * The contract's limits and allowlists the edge's Lua checks read (the firewall's, the Lua ACL's and
 * the CORS module's), named once here: the agent writes them into the Lua module
 * `rampart.contract_limits` (apps/edge/src/nginx/lua-limits.ts), each under the name of the
 * contract's constant it is, so no Lua file copies a value by hand.
 */

/** Where the constants are looked up by name. */
const CONTRACT = {
  ...constants,
  ...domainAccess,
  ...frequency,
  ...geos,
  ...headers,
  ...lists,
  ...userAgents,
  ...acl,
  ...moduleSchemas,
  ...challenge,
  ...dataPlaneFirewall,
};
type Contract = typeof CONTRACT;

/** The contract's constants of these names, in this order (the order they are written in). */
function byName<const N extends keyof Contract>(names: readonly N[]): { [K in N]: Contract[K] } {
  return Object.fromEntries(names.map((name) => [name, CONTRACT[name]])) as { [K in N]: Contract[K] };
}

/** Whole-number limits. */
export const LUA_LIMIT_NUMBERS = byName([
  'FIREWALL_LIST_RULES_PER_SITE',
  'MAX_IPS',
  'FIREWALL_URL_MAX',
  'USER_AGENT_REGEX_MAX',
  'HEADER_NAME_MAX',
  'FREQUENCY_SECONDS_MAX',
  'FREQUENCY_TIMES_MAX',
  'SECOND_RATE_MAX',
  'SECOND_BURST_MAX',
  'BLOCK_SECONDS_MAX',
  'GEO_RULE_REGIONS_MAX',
  'DOMAIN_ACCESS_RULES_MAX',
  'REFERER_HOSTS_MAX',
  'REFERER_HOST_MAX',
  'ACL_RULES_PER_MODULE',
  'ACL_CONDITIONS_MAX',
  'ACL_VALUES_MAX',
  'ACL_VALUE_MAX',
  'ACL_FREQUENCY_COUNT_MAX',
  'ACL_FREQUENCY_SECONDS_MAX',
]) satisfies Record<string, number>;

/**
 * Patterns. HEADER_NAME_RE takes any case: the edge's header rules also carry the name in lower
 * case (checked apart).
 */
export const LUA_LIMIT_PATTERNS = byName([
  'FIREWALL_URL_RE',
  'USER_AGENT_REGEX_RE',
  'GEO_COUNTRY_ID_RE',
  'HEADER_NAME_RE',
  'REFERER_HOST_RE',
  'ACL_VALUE_RE',
]) satisfies Record<string, RegExp>;

const sets = byName([
  'FIREWALL_METHODS',
  'EDGE_RULE_ACTIONS',
  'EDGE_BLOCK_ACTIONS',
  'EDGE_CHALLENGES',
  'EDGE_HEADER_ACTIONS',
  'REFERER_MODES',
  // The Lua ACL's (rampart.acl_check) and the CORS module's (rampart.modules_check), upper case as sent.
  'ACL_METHODS',
  'ACL_ACTIONS',
  'ACL_STRING_FIELDS',
  'ACL_STRING_OPERATORS',
  'ACL_FREQUENCY_OPERATORS',
  'CORS_METHODS',
]) satisfies Record<string, readonly string[]>;

/** Allowlists, as the edge entries carry them: the firewall's methods in upper case, the others as they are. */
export const LUA_LIMIT_SETS: { readonly [N in keyof typeof sets]: readonly string[] } = {
  ...sets,
  FIREWALL_METHODS: sets.FIREWALL_METHODS.map((method) => method.toUpperCase()),
};
