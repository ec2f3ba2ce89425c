/**
 * Writes the firewall's limits and allowlists from the contract into the agent's Lua
 * (apps/edge/lua/rampart/contract_limits.lua; apps/edge/src/nginx/lua-limits.ts renders it).
 *
 *   npx tsx scripts/lua-limits.mts           writes the file
 *   npx tsx scripts/lua-limits.mts --check   exit 1 when the checked-in file is not what the contract gives
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LUA_LIMITS_FILE, renderLuaLimits } from '../apps/edge/src/nginx/lua-limits.ts';

const file = path.resolve(import.meta.dirname, '../apps/edge/lua', LUA_LIMITS_FILE);
const text = renderLuaLimits();
if (process.argv.includes('--check')) {
  const current = readFileSync(file, 'utf8');
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), file)} is out of date: run npx tsx scripts/lua-limits.mts`);
    process.exitCode = 1;
  } else console.log(`${path.relative(process.cwd(), file)} is up to date`);
} else {
  writeFileSync(file, text);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
