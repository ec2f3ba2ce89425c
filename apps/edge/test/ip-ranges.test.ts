import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_LUA_CPATH, SYSTEM_LUA_PATH } from '../src/nginx/render.js';
import { LUA_DIR } from './helpers/edge.js';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';

// rampart.ip_ranges (the firewall's, the Lua ACL's and the escalation's address sets) bisects the
// data plane's sorted ranges. Its answers must be those of a plain scan of the ranges, for every
// kind of set and address: the reference for any faster lookup of these sets.

let lua: LuaNginx;

beforeAll(async () => {
  lua = await startLuaNginx('ip-ranges', {
    http: `  lua_package_path '${LUA_DIR}/?.lua;${SYSTEM_LUA_PATH};;';
  lua_package_cpath '${SYSTEM_LUA_CPATH};;';`,
    server: `
    location = /contains {
      client_body_buffer_size 8m;
      client_max_body_size 8m;
      content_by_lua_block {
        local cjson = require "cjson"
        local ip_ranges = require "rampart.ip_ranges"
        local unhex = require("rampart.challenge").unhex
        ngx.req.read_body()
        local args = cjson.decode(ngx.req.get_body_data())
        local sets = {}
        for i, list in ipairs(args.sets) do sets[i] = ip_ranges.compile(list) or false end
        local out = {}
        for i, probe in ipairs(args.probes) do
          local set = sets[probe[1]]
          out[i] = set ~= false and ip_ranges.contains(set, unhex(probe[2]))
        end
        ngx.say(cjson.encode(out))
      }
    }
`,
  });
});

afterAll(async () => {
  await lua?.stop();
});

/** A deterministic generator (the sets and addresses are the same on every run). */
function random(seed: number) {
  let x = seed;
  return (below: bigint): bigint => {
    let v = 0n;
    for (let i = 0; i < 3; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      v = (v << 31n) | BigInt(x);
    }
    return below > 0n ? v % below : 0n;
  };
}

const hex = (v: bigint, digits: number) => v.toString(16).padStart(digits, '0');

/** Sorted, disjoint ranges of one family: single addresses, short and long ranges, some adjacent. */
function rangeSet(next: (below: bigint) => bigint, digits: number, count: number): [bigint, bigint][] {
  const max = (1n << BigInt(digits * 4)) - 1n;
  const out: [bigint, bigint][] = [];
  let at = next(1000n);
  for (let i = 0; i < count && at <= max; i++) {
    const kind = next(4n);
    const size = kind === 0n ? next(1n << BigInt(digits * 2)) : kind === 1n ? next(300n) : 0n;
    const last = at + size > max ? max : at + size;
    out.push([at, last]);
    at = last + 1n + (next(3n) === 0n ? 0n : next(1n << BigInt(digits * 3)));
  }
  return out;
}

describe('rampart.ip_ranges', () => {
  it('answers as a scan of the ranges for single addresses, ranges, both families and the ends', async () => {
    const next = random(59);
    const sets: [bigint, bigint][][] = [];
    const digits: number[] = [];
    for (const d of [8, 32]) {
      for (const count of [0, 1, 2, 3, 17, 300]) {
        sets.push(rangeSet(next, d, count));
        digits.push(d);
      }
      // Only single addresses; one range covering everything.
      sets.push(rangeSet(next, d, 200).map(([a]) => [a, a]));
      digits.push(d);
      sets.push([[0n, (1n << BigInt(d * 4)) - 1n]]);
      digits.push(d);
    }
    const probes: [number, string][] = [];
    const expected: boolean[] = [];
    sets.forEach((set, s) => {
      const d = digits[s] as number;
      const max = (1n << BigInt(d * 4)) - 1n;
      const candidates = [0n, max, ...Array.from({ length: 50 }, () => next(max + 1n))];
      for (const [a, b] of set) candidates.push(a, b, a - 1n, b + 1n, (a + b) / 2n);
      for (const c of candidates) {
        if (c < 0n || c > max) continue;
        probes.push([s + 1, hex(c, d)]);
        expected.push(set.some(([a, b]) => a <= c && c <= b));
      }
    });
    const res = await fetch(`http://127.0.0.1:${lua.port}/contains`, {
      method: 'POST',
      body: JSON.stringify({
        sets: sets.map((set, s) => set.map(([a, b]) => [hex(a, digits[s] as number), hex(b, digits[s] as number)])),
        probes,
      }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status, await lua.errorLog()).toBe(200);
    const got = (await res.json()) as boolean[];
    expect(probes.length).toBeGreaterThan(3000);
    expect(new Set(expected)).toEqual(new Set([true, false]));
    expect(got).toEqual(expected);
  });
});
