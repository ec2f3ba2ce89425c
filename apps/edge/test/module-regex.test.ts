import { isSafeModuleRegex, pcreRegexProblem } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LuaNginx, startLuaNginx } from './helpers/lua-nginx.js';
import { REGEX_CORPUS as CORPUS } from './helpers/regex-corpus.js';

/**
 * The API's check of customer path patterns (redirect and rewrite rules with matchType regex)
 * against the engine that runs them: each pattern of the corpus is compiled by ngx.re in a real
 * nginx with the options the edge uses ("jo"), and the API must accept exactly the patterns
 * nginx compiles, except constructs the API refuses on purpose (`(?`, `(*`, escapes outside
 * the subset), which it must refuse whatever nginx says.
 */

let lua: LuaNginx;

beforeAll(async () => {
  lua = await startLuaNginx('module-regex', {
    http: '  client_body_buffer_size 16k;',
    server: `    location = /compile {
      content_by_lua_block {
        ngx.req.read_body()
        local pattern = ngx.req.get_body_data() or ""
        -- The options of the edge's own matching (rampart/modules.lua).
        local from, _, err = ngx.re.find("", pattern, "jo")
        if err then ngx.say("error: ", err) else ngx.say("ok") end
      }
    }`,
  });
});

afterAll(async () => {
  await lua?.stop();
});

async function nginxCompiles(pattern: string): Promise<{ ok: boolean; text: string }> {
  const response = await fetch(`http://127.0.0.1:${lua.port}/compile`, {
    method: 'POST',
    body: pattern,
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
  const text = (await response.text()).trim();
  return { ok: text === 'ok', text };
}

describe('customer path patterns: the API agrees with the PCRE2 of the edge', () => {
  it('accepts exactly what ngx.re compiles, refusing constructs outside the subset whatever nginx says', async () => {
    const wrong: string[] = [];
    let compiled = 0;
    let refused = 0;
    for (const pattern of CORPUS) {
      const nginx = await nginxCompiles(pattern);
      const api = isSafeModuleRegex(pattern);
      if (nginx.ok) compiled++;
      else refused++;
      const expected = pcreRegexProblem(pattern) === 'subset' ? false : nginx.ok;
      if (api !== expected)
        wrong.push(`${JSON.stringify(pattern)}: nginx ${nginx.text}, API ${api ? 'accepts' : 'refuses'}`);
      // The subset never accepts what nginx cannot compile.
      if (api && !nginx.ok) wrong.push(`${JSON.stringify(pattern)}: accepted but nginx says ${nginx.text}`);
    }
    expect(wrong).toEqual([]);
    // The corpus holds both kinds in numbers, so the comparison cannot pass by accident.
    expect(compiled).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(30);
  }, 120_000);

  it('the review examples are refused by the API and by nginx', async () => {
    for (const pattern of ['[]', '[^]', '[a-\\d]', 'a{1,100000}']) {
      expect(isSafeModuleRegex(pattern), pattern).toBe(false);
      expect((await nginxCompiles(pattern)).ok, pattern).toBe(false);
    }
  });
});
