import { LUA_LIMIT_NUMBERS, LUA_LIMIT_PATTERNS, LUA_LIMIT_SETS } from '@rampart/contract';

/**
 * The contract's limits and allowlists for the Lua checks (packages/contract/src/edge/lua-limits.ts: the
 * firewall's, the Lua ACL's and the CORS module's) as a Lua module (`rampart.contract_limits`), so the
 * Lua checks read them instead of copying them: `npx tsx scripts/lua-limits.mts`
 * writes apps/edge/lua/rampart/contract_limits.lua, and test/lua-limits.test.ts fails while the
 * checked-in file differs from what this renders.
 */

/** Where the generated module lives, under the agent's Lua directory. */
export const LUA_LIMITS_FILE = 'rampart/contract_limits.lua';

/** A contract pattern as PCRE reads it: `\/` is `/`, and the final `$` is `\z` (no match before a final newline). */
export const pcreOf = (re: RegExp) => re.source.replace(/\\\//g, '/').replace(/\$$/, '\\z');

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
  for (const [name, value] of Object.entries(LUA_LIMIT_NUMBERS)) {
    if (!Number.isSafeInteger(value)) throw new Error(`${name} is not a whole number`);
    lines.push(`_M.${name} = ${value}`);
  }
  lines.push('');
  for (const [name, re] of Object.entries(LUA_LIMIT_PATTERNS)) lines.push(`_M.${name} = ${longString(pcreOf(re))}`);
  lines.push('');
  for (const [name, items] of Object.entries(LUA_LIMIT_SETS)) {
    for (const item of items) if (!SAFE_NAME.test(item)) throw new Error(`${name}: ${item} is not a Lua name`);
    lines.push(`_M.${name} = { ${items.map((item) => `${item} = true`).join(', ')} }`);
  }
  lines.push('', 'return _M', '');
  return lines.join('\n');
}
