import {
  ACL_ACTIONS,
  ACL_CONDITIONS_MAX,
  ACL_FREQUENCY_COUNT_MAX,
  ACL_FREQUENCY_OPERATORS,
  ACL_FREQUENCY_SECONDS_MAX,
  ACL_METHODS,
  ACL_RULES_PER_MODULE,
  ACL_STRING_FIELDS,
  ACL_STRING_OPERATORS,
  ACL_VALUE_MAX,
  ACL_VALUE_RE,
  ACL_VALUES_MAX,
  BLOCK_SECONDS_MAX,
  CORS_METHODS,
  DOMAIN_ACCESS_RULES_MAX,
  EDGE_BLOCK_ACTIONS,
  EDGE_CHALLENGES,
  EDGE_HEADER_ACTIONS,
  EDGE_RULE_ACTIONS,
  FIREWALL_LIST_RULES_PER_SITE,
  FIREWALL_METHODS,
  FIREWALL_URL_MAX,
  FIREWALL_URL_RE,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
  GEO_COUNTRY_ID_RE,
  GEO_RULE_REGIONS_MAX,
  HEADER_NAME_MAX,
  HEADER_NAME_RE,
  MAX_IPS,
  REFERER_HOST_MAX,
  REFERER_HOST_RE,
  REFERER_HOSTS_MAX,
  REFERER_MODES,
  SECOND_BURST_MAX,
  SECOND_RATE_MAX,
  USER_AGENT_REGEX_MAX,
  USER_AGENT_REGEX_RE,
} from '@rampart/contract';

/**
 * The firewall's, the Lua ACL's and the CORS module's limits and allowlists as a Lua module (`rampart.contract_limits`), written from the
 * contract so the Lua checks read them instead of copying them: `npx tsx scripts/lua-limits.mts`
 * writes apps/edge/lua/rampart/contract_limits.lua, and test/lua-limits.test.ts fails while the
 * checked-in file differs from what this renders.
 */

/** Where the generated module lives, under the agent's Lua directory. */
export const LUA_LIMITS_FILE = 'rampart/contract_limits.lua';

/** A contract pattern as PCRE reads it: `\/` is `/`, and the final `$` is `\z` (no match before a final newline). */
export const pcreOf = (re: RegExp) => re.source.replace(/\\\//g, '/').replace(/\$$/, '\\z');

const NUMBERS: Record<string, number> = {
  FIREWALL_LIST_RULES_PER_SITE,
  MAX_IPS,
  FIREWALL_URL_MAX,
  USER_AGENT_REGEX_MAX,
  HEADER_NAME_MAX,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
  SECOND_RATE_MAX,
  SECOND_BURST_MAX,
  BLOCK_SECONDS_MAX,
  GEO_RULE_REGIONS_MAX,
  DOMAIN_ACCESS_RULES_MAX,
  REFERER_HOSTS_MAX,
  REFERER_HOST_MAX,
  ACL_RULES_PER_MODULE,
  ACL_CONDITIONS_MAX,
  ACL_VALUES_MAX,
  ACL_VALUE_MAX,
  ACL_FREQUENCY_COUNT_MAX,
  ACL_FREQUENCY_SECONDS_MAX,
};

const PATTERNS: Record<string, RegExp> = {
  FIREWALL_URL_RE,
  USER_AGENT_REGEX_RE,
  GEO_COUNTRY_ID_RE,
  // Any case: the edge's header rules also carry it in lower case (checked apart).
  HEADER_NAME_RE,
  REFERER_HOST_RE,
  ACL_VALUE_RE,
};

/** Sets, as the Lua checks test membership: `{ name = true, ... }`. */
const SETS: Record<string, readonly string[]> = {
  // Upper case, as the edge entries carry them.
  FIREWALL_METHODS: FIREWALL_METHODS.map((m) => m.toUpperCase()),
  EDGE_RULE_ACTIONS,
  EDGE_BLOCK_ACTIONS,
  EDGE_CHALLENGES,
  EDGE_HEADER_ACTIONS,
  REFERER_MODES,
  // The Lua ACL's (rampart.acl_check) and the CORS module's (rampart.modules_check), upper case as sent.
  ACL_METHODS,
  ACL_ACTIONS,
  ACL_STRING_FIELDS,
  ACL_STRING_OPERATORS,
  ACL_FREQUENCY_OPERATORS,
  CORS_METHODS,
};

/** A Lua long string that cannot close early. */
function longString(text: string): string {
  let level = 1;
  while (text.includes(`]${'='.repeat(level)}]`)) level += 1;
  const eq = '='.repeat(level);
  return `[${eq}[${text}]${eq}]`;
}

const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The module's text. */
export function renderLuaLimits(): string {
  const lines = [
    '-- Generated from packages/contract by scripts/lua-limits.mts (apps/edge/src/nginx/lua-limits.ts): do not',
    '-- edit. `npx tsx scripts/lua-limits.mts` writes it again; apps/edge/test/lua-limits.test.ts checks it is',
    "-- the contract's. Each name is the contract's constant of that name.",
    'local _M = {}',
    '',
  ];
  for (const [name, value] of Object.entries(NUMBERS)) {
    if (!Number.isSafeInteger(value)) throw new Error(`${name} is not a whole number`);
    lines.push(`_M.${name} = ${value}`);
  }
  lines.push('');
  for (const [name, re] of Object.entries(PATTERNS)) lines.push(`_M.${name} = ${longString(pcreOf(re))}`);
  lines.push('');
  for (const [name, items] of Object.entries(SETS)) {
    for (const item of items) if (!SAFE_NAME.test(item)) throw new Error(`${name}: ${item} is not a Lua name`);
    lines.push(`_M.${name} = { ${items.map((item) => `${item} = true`).join(', ')} }`);
  }
  lines.push('', 'return _M', '');
  return lines.join('\n');
}
