import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ABUSE_IP_FILE_HEADER_BYTES,
  ABUSE_IP_FILE_MAGIC,
  ABUSE_IP_FILE_V4_RECORD_BYTES,
  ABUSE_IP_FILE_V6_RECORD_BYTES,
  ABUSE_IP_SCORE_MAX,
  ABUSE_IP_SCORE_MIN,
  BLOCK_CAUSES,
  BLOCK_IDS_MAX,
  BLOCK_LIST_DEFAULT_SECONDS,
  BLOCK_REPORT_MAX,
  CACHE_PATH_RE,
  CACHE_RULE_VALUES_MAX,
  CACHE_RULES_PER_SITE,
  CACHE_SUFFIX_RE,
  CACHE_TTL_SECONDS,
  CHALLENGE_COOKIE,
  CHALLENGE_KEYS_MAX,
  CHALLENGE_PATH,
  CHALLENGE_PERIOD_SECONDS,
  CHALLENGE_WORK_BITS_DEFAULT,
  CHALLENGE_WORK_BITS_MAX,
  CHALLENGE_WORK_BITS_MIN,
  CORS_LIST_MAX,
  CORS_MAX_AGE_MAX,
  CORS_ORIGIN_RE,
  CUSTOM_HEADERS_MAX,
  DATA_PLANE_LIMITS,
  EDGE_BLOCK_ACTIONS,
  EDGE_CHALLENGES,
  EDGE_HEADER_ACTIONS,
  EDGE_RULE_ACTIONS,
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_MAX_BYTES,
  ERROR_PAGE_STATUSES,
  edgeChallengeSchema,
  edgeFirewallSchema,
  edgeModuleSchema,
  FIREWALL_METHODS,
  GEO_SHA256_RE,
  GZIP_MAX_MIN_LENGTH,
  GZIP_TYPES,
  HOST_NAME_RE,
  MODULE_HEADER_NAME_RE,
  MODULE_HEADER_VALUE_MAX,
  MODULE_HEADER_VALUE_RE,
  MODULE_HEADERS_DENIED,
  MODULE_REGEX_RE,
  MODULE_REQUEST_HEADERS_DENIED,
  OPERATOR_ERROR_PAGES_MAX_BYTES,
  PATH_MATCH_TYPES,
  RATE_MAX_KBPS,
  RATE_PATTERN_RE,
  RATE_RULES_PER_SITE,
  REDIRECT_CODES,
  REDIRECT_RULES_PER_SITE,
  REDIRECT_TARGET_RE,
  REWRITE_RULES_PER_MODULE,
  REWRITE_TARGET_RE,
  SITE_MODULE_TYPES,
  TOKEN_AUTH_ACTIONS,
  TOKEN_AUTH_CLOCK_SKEW,
  TOKEN_AUTH_EXPIRE_MAX,
  TOKEN_AUTH_KEY_RE,
  TOKEN_AUTH_VALUE_MAX,
  TOKEN_AUTHS_PER_MODULE,
  WAF_BODY_LIMIT_BYTES,
  WAF_EXCLUSION_NAME_MAX,
  WAF_EXCLUSION_NAME_RE,
  WAF_EXCLUSION_PARTS,
  WAF_EXCLUSION_PATH_MAX,
  WAF_EXCLUSION_PATH_RE,
  WAF_EXCLUSIONS_PER_MODULE,
  WAF_FAIL_MODES,
  WAF_GROUPS,
  WAF_MODES,
  WAF_RULE_ID_MAX,
  WAF_RULE_ID_MIN,
  WAF_SENSITIVITIES,
  ZONE_LIMIT_MAX,
} from '@rampart/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_HEIGHT, CODE_WIDTH } from '../src/challenge-pool/code-image.js';
import { PIECE_BOX_HEIGHT, PIECE_BOX_WIDTH, SLIDER_HEIGHT, SLIDER_WIDTH } from '../src/challenge-pool/slider-image.js';
import { dataPlaneSchema } from '../src/data-plane/schema.js';
import { LUA_DIR } from './helpers/edge.js';

// The Lua checks (validate.lua, validate_cache.lua, modules_check.lua, settings_check.lua, firewall_check.lua) repeat the contract's
// allowlists and limits, because nginx cannot import TypeScript. This test reads every copied
// pattern, list and limit out of the Lua sources and compares it with the contract's own, so that a
// change on one side without the other fails here.

const lua: Record<string, string> = {};

beforeAll(async () => {
  for (const name of [
    'validate',
    'validate_cache',
    'validate_zone',
    'checks',
    'modules_check',
    'acl_check',
    'settings_check',
    'firewall_check',
    'firewall_headers_check',
    'firewall',
    'challenge',
    'challenge_pages',
    'challenge_pool',
    'firewall_geo',
    'blocklist',
    'escalate',
    'firewall_reputation',
    'token_auth',
    'waf',
    'waf_check',
  ]) {
    lua[name] = await readFile(path.join(LUA_DIR, `rampart/${name}.lua`), 'utf8');
  }
});

function source(file: string): string {
  const text = lua[file];
  if (text === undefined) throw new Error(`${file}.lua not read`);
  return text;
}

/** `local NAME = [[...]]` (the pattern may start on the next line). */
function pattern(file: string, name: string): string {
  const m = new RegExp(`^local ${name} =\\s*\\[\\[(.*?)\\]\\]`, 'ms').exec(source(file));
  if (!m?.[1]) throw new Error(`no pattern ${name} in ${file}.lua`);
  return m[1];
}

// A contract regex as the Lua checks write it: `\/` is `/`, and the final `$` is `\z` (without the
// m flag JavaScript's `$` is the end of the input; PCRE's `$` also matches before a final newline).
const pcre = (re: RegExp) => re.source.replace(/\\\//g, '/').replace(/\$$/, '\\z');

/** `local NAME = { k = v, ... }` or `{ [k] = true, ... }` as key → value text. */
function table(file: string, name: string): Record<string, string> {
  const m = new RegExp(`^local ${name} = \\{([^}]*)\\}`, 'm').exec(source(file));
  if (!m?.[1]) throw new Error(`no table ${name} in ${file}.lua`);
  const entries = m[1]
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  return Object.fromEntries(
    entries.map((e) => {
      const [k = '', v = ''] = e.split('=').map((s) => s.trim());
      return [k.replace(/^\[(.*)\]$/, '$1').replace(/^"(.*)"$/, '$1'), v];
    }),
  );
}

/** The items of the `ipairs({ ... })` list that fills NAME. */
function filledList(file: string, name: string): string[] {
  const m = new RegExp(`for _, \\w+ in ipairs\\(\\{([^}]*)\\}\\) do\\s*${name}\\[`, 'm').exec(source(file));
  if (!m?.[1]) throw new Error(`no list for ${name} in ${file}.lua`);
  return m[1]
    .split(',')
    .map((e) => e.trim().replace(/^"(.*)"$/, '$1'))
    .filter((e) => e !== '');
}

function number(file: string, expression: RegExp): number {
  const m = expression.exec(source(file));
  if (!m?.[1]) throw new Error(`${expression} not in ${file}.lua`);
  return Number(m[1]);
}

const sorted = (list: readonly (string | number)[]) => [...list].map(String).sort();

describe('the Lua checks agree with the contract', () => {
  it('validate.lua and validate_cache.lua: host, cache patterns, TTLs, scopes, redirect codes and limits', () => {
    expect(pattern('validate', 'HOST_RE')).toBe(pcre(HOST_NAME_RE));
    expect(pattern('validate_cache', 'CACHE_PATH_RE')).toBe(pcre(CACHE_PATH_RE));
    expect(pattern('validate_cache', 'CACHE_SUFFIX_RE')).toBe(pcre(CACHE_SUFFIX_RE));
    expect(sorted(filledList('validate_cache', 'CACHE_TTLS'))).toEqual(sorted(CACHE_TTL_SECONDS));
    const scope = dataPlaneSchema.shape.caches.unwrap().element.shape.rules.element.shape.scope;
    expect(sorted(Object.keys(table('validate_cache', 'CACHE_SCOPES')))).toEqual(sorted(scope.options));
    expect(sorted(Object.keys(table('validate', 'REDIRECT_CODES')))).toEqual(sorted(REDIRECT_CODES));
    const limits = table('validate', 'LIMITS');
    expect(Number(limits.domains)).toBe(DATA_PLANE_LIMITS.domains);
    expect(Number(limits.certificates)).toBe(DATA_PLANE_LIMITS.certificates);
    expect(Number(limits.upstreams)).toBe(DATA_PLANE_LIMITS.upstreamsPerDomain);
    const cacheLimits = table('validate_cache', 'LIMITS');
    expect(Number(cacheLimits.cache_rules)).toBe(CACHE_RULES_PER_SITE);
    expect(Number(cacheLimits.cache_values)).toBe(CACHE_RULE_VALUES_MAX * 8);
    expect(number('validate_zone', /^local ZONE_LIMIT_MAX = (\d+)/m)).toBe(ZONE_LIMIT_MAX);
  });

  it('every anchored PCRE literal of the Lua ends at the true end of the value (\\z, not $)', async () => {
    const files = (await readdir(path.join(LUA_DIR, 'rampart'))).filter((f) => f.endsWith('.lua'));
    const dollar = [];
    for (const file of files) {
      const text = await readFile(path.join(LUA_DIR, 'rampart', file), 'utf8');
      for (const line of text.split('\n'))
        if (line.includes('[[^') && line.includes('$]]')) dollar.push(`${file}: ${line}`);
    }
    expect(files.length).toBeGreaterThan(20);
    expect(dollar).toEqual([]);
  });

  it('validate.lua: the version token accepts what the contract accepts', () => {
    // Read as JavaScript: PCRE's \z (the true end) is JavaScript's $ without the m flag.
    const re = new RegExp(pattern('validate', 'VERSION_RE').replace(/\\z$/, '$'));
    const accepted = (version: string) => dataPlaneSchema.safeParse({ version, domains: [], certificates: [] }).success;
    const probes = [
      ...Array.from({ length: 95 }, (_, i) => `v${String.fromCharCode(32 + i)}1`),
      'a'.repeat(DATA_PLANE_LIMITS.versionLength),
      'a'.repeat(DATA_PLANE_LIMITS.versionLength + 1),
      '',
      'v1\n',
    ];
    for (const probe of probes) expect(re.test(probe), JSON.stringify(probe)).toBe(accepted(probe));
  });

  it('modules_check.lua: header, path, regex, target, origin and host patterns, lists and limits', () => {
    expect(pattern('modules_check', 'HEADER_NAME_RE')).toBe(pcre(MODULE_HEADER_NAME_RE));
    // The contract bounds the value's length apart from its pattern.
    expect(pattern('modules_check', 'HEADER_VALUE_RE')).toBe(
      pcre(MODULE_HEADER_VALUE_RE).replace(/\*\\z$/, `{0,${MODULE_HEADER_VALUE_MAX}}\\z`),
    );
    // exact and prefix rule sources are the contract's CACHE_PATH_RE (edge/modules.ts).
    expect(pattern('modules_check', 'PATH_RE')).toBe(pcre(CACHE_PATH_RE));
    // PCRE needs `[` escaped inside a class where JavaScript does not.
    expect(pattern('modules_check', 'REGEX_CHARS_RE').replace('\\[', '[')).toBe(pcre(MODULE_REGEX_RE));
    expect(pattern('modules_check', 'REDIRECT_TARGET_RE')).toBe(pcre(REDIRECT_TARGET_RE));
    expect(pattern('modules_check', 'REWRITE_TARGET_RE')).toBe(pcre(REWRITE_TARGET_RE));
    expect(pattern('modules_check', 'CORS_ORIGIN_RE')).toBe(pcre(CORS_ORIGIN_RE));
    // A rewrite's Host: the data plane's host name without the wildcard.
    expect(pattern('modules_check', 'HOST_RE')).toBe(pcre(HOST_NAME_RE).replace('^(\\*\\.)?', '^'));
    // The CORS methods come from rampart.contract_limits (lua-limits.test.ts checks its values).
    expect(source('modules_check')).toContain('local METHODS = contract_limits.CORS_METHODS');
    expect(source('modules_check')).not.toMatch(/OPTIONS = true/);
    expect(sorted(Object.keys(table('modules_check', 'REDIRECT_CODES')))).toEqual(sorted(REDIRECT_CODES));
    expect(sorted(Object.keys(table('modules_check', 'MATCHES')))).toEqual(sorted(PATH_MATCH_TYPES));
    // The site-modules list (the WAF's included): every type of the edge document's module union.
    expect(sorted(Object.keys(table('modules_check', 'TYPES')))).toEqual(sorted([...SITE_MODULE_TYPES]));
    expect(sorted(Object.keys(table('modules_check', 'TYPES')))).toEqual(
      sorted(edgeModuleSchema.options.map((o) => o.shape.type.value)),
    );
    const both =
      /for _, h in ipairs\(\{([^}]*)\}\) do\s*DENIED\[h\] = "both"/m.exec(source('modules_check'))?.[1] ?? '';
    const request =
      /for _, h in ipairs\(\{([^}]*)\}\) do\s*DENIED\[h\] = "request"/m.exec(source('modules_check'))?.[1] ?? '';
    const items = (text: string) =>
      text
        .split(',')
        .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
        .filter(Boolean);
    expect(sorted(items(both))).toEqual(sorted(MODULE_HEADERS_DENIED));
    expect(sorted([...items(both), ...items(request)])).toEqual(sorted(MODULE_REQUEST_HEADERS_DENIED));
    const limits = table('modules_check', 'LIMITS');
    expect(Number(limits.modules)).toBe(DATA_PLANE_LIMITS.domains);
    expect(Number(limits.headers)).toBe(CUSTOM_HEADERS_MAX);
    expect(Number(limits.redirects)).toBe(REDIRECT_RULES_PER_SITE);
    expect(Number(limits.rewrites)).toBe(REWRITE_RULES_PER_MODULE);
    expect(Number(limits.cors)).toBe(CORS_LIST_MAX);
    expect(number('modules_check', /m\.maxAge > (\d+)/)).toBe(CORS_MAX_AGE_MAX);
    expect(number('modules_check', /#m\.host > (\d+)/)).toBe(DATA_PLANE_LIMITS.hostLength);
  });

  it("acl_check.lua: the Lua ACL's limits, fields, operators, methods, actions and patterns come from rampart.contract_limits", () => {
    const acl = source('acl_check');
    for (const line of [
      'local MAX_RULES, MAX_CONDITIONS = limits.ACL_RULES_PER_MODULE, limits.ACL_CONDITIONS_MAX',
      'local MAX_VALUES, MAX_VALUE = limits.ACL_VALUES_MAX, limits.ACL_VALUE_MAX',
      'local MAX_COUNT, MAX_SECONDS = limits.ACL_FREQUENCY_COUNT_MAX, limits.ACL_FREQUENCY_SECONDS_MAX',
      'local STRING_FIELDS = limits.ACL_STRING_FIELDS',
      'local STRING_OPS = limits.ACL_STRING_OPERATORS',
      'local FREQUENCY_OPS = limits.ACL_FREQUENCY_OPERATORS',
      'local METHODS = limits.ACL_METHODS',
      'local ACTIONS = limits.ACL_ACTIONS',
      'local VALUE_RE = limits.ACL_VALUE_RE',
      'local COUNTRY_RE = limits.GEO_COUNTRY_ID_RE',
      'is_int(c.count, 0, MAX_COUNT)',
      'is_int(c.seconds, 1, MAX_SECONDS)',
    ])
      expect(acl).toContain(line);
    // No list or limit written again by hand.
    expect(acl).not.toMatch(/\w = true\b/);
    expect(acl).not.toMatch(/\b(200|512|1000000|86400)\b/);
    expect(acl).not.toContain('[A-Z]{2}');
    // The header a condition names: the contract's module header name.
    expect(pattern('acl_check', 'HEADER_NAME_RE')).toBe(pcre(MODULE_HEADER_NAME_RE));
  });

  it('modules_check.lua and token_auth.lua: token auth keys, extensions, actions, limits and clock skew', () => {
    expect(pattern('modules_check', 'TOKEN_AUTH_KEY_RE')).toBe(pcre(TOKEN_AUTH_KEY_RE));
    expect(pattern('modules_check', 'SUFFIX_RE')).toBe(pcre(CACHE_SUFFIX_RE));
    expect(sorted(Object.keys(table('modules_check', 'TOKEN_AUTH_ACTIONS')))).toEqual(sorted(TOKEN_AUTH_ACTIONS));
    const m =
      /^local TOKEN_AUTHS_MAX, TOKEN_AUTH_VALUE_MAX, TOKEN_AUTH_EXPIRE_MAX, FILE_TYPES_MAX = (\d+), (\d+), (\d+), (\d+)/m.exec(
        source('modules_check'),
      );
    expect(m?.slice(1).map(Number)).toEqual([
      TOKEN_AUTHS_PER_MODULE,
      TOKEN_AUTH_VALUE_MAX,
      TOKEN_AUTH_EXPIRE_MAX,
      CACHE_RULE_VALUES_MAX,
    ]);
    expect(number('token_auth', /^local SKEW = (\d+)/m)).toBe(TOKEN_AUTH_CLOCK_SKEW);
    expect(sorted(Object.keys(table('token_auth', 'ROUTE')))).toEqual(sorted(TOKEN_AUTH_ACTIONS));
  });

  it('settings_check.lua: gzip types, page statuses, languages, the rate pattern and limits', () => {
    expect(sorted(filledList('settings_check', 'GZIP_TYPES'))).toEqual(sorted(GZIP_TYPES));
    expect(sorted(filledList('settings_check', 'PAGE_STATUSES'))).toEqual(sorted(ERROR_PAGE_STATUSES));
    expect(sorted(Object.keys(table('settings_check', 'LANGUAGES')))).toEqual(sorted(ERROR_PAGE_LANGUAGES));
    expect(pattern('settings_check', 'RATE_PATTERN_RE')).toBe(pcre(RATE_PATTERN_RE));
    const m = /^local MAX_RATES, MAX_KBPS, MAX_MIN_LENGTH, MAX_PAGE_BYTES = (\d+), (\d+), (\d+), (\d+)/m.exec(
      source('settings_check'),
    );
    expect(m?.slice(1).map(Number)).toEqual([
      RATE_RULES_PER_SITE,
      RATE_MAX_KBPS,
      GZIP_MAX_MIN_LENGTH,
      ERROR_PAGE_MAX_BYTES,
    ]);
    expect(number('settings_check', /is_list\(g\.types, (\d+)\)/)).toBe(GZIP_TYPES.length);
    expect(number('settings_check', /is_list\(list, (\d+)\)/)).toBe(ERROR_PAGE_STATUSES.length);
    // The operator's default pages (data plane `errorPages`): the same check, with their total.
    expect(number('validate', /settings_check\.pages\(raw_pages, "errorPages", (\d+)\)/)).toBe(
      OPERATOR_ERROR_PAGES_MAX_BYTES,
    );
  });

  // The firewall checks read the contract's lists and limits from rampart.contract_limits, which is
  // generated from the contract (lua-limits.test.ts checks its values): none is written again here.
  it('firewall_check.lua, checks.lua, firewall_headers_check.lua, firewall_geo.lua: no copy of the contract', () => {
    for (const file of ['firewall_check', 'checks', 'firewall_headers_check', 'firewall_geo']) {
      const text = source(file);
      // a set of methods or actions, or a number or pattern given to a limit's name (the HEX*_RE
      // are the edge's own address and hash encodings, checked apart)
      expect(text, file).not.toMatch(/\{\s*(GET|deny|shield|allow) = true/);
      expect(text, file).not.toMatch(/^local (MAX_\w+|(?!HEX)\w+_RE)(, \w+)* = (\d|\[)/m);
    }
    expect(source('checks')).toContain('local RULE_ACTIONS = require("rampart.contract_limits").EDGE_RULE_ACTIONS');
  });

  it('firewall_check.lua: methods, actions, the URL pattern characters and the limits', () => {
    const fc = source('firewall_check');
    expect(fc).toContain('local METHODS = limits.FIREWALL_METHODS');
    const action = edgeFirewallSchema.shape.blacklist.element.shape.action;
    expect(sorted(action.options)).toEqual(sorted(EDGE_RULE_ACTIONS));
    expect(source('firewall_check')).toContain('local RULE_ACTIONS = checks.RULE_ACTIONS');
    const agentAction = edgeFirewallSchema.shape.userAgents.unwrap().element.shape.action;
    expect(sorted(agentAction.options)).toEqual(sorted(action.options));
    // The challenges the router routes (rampart.firewall CHALLENGE_OF) are the contract's.
    const letters = /^_M\.LETTER = \{([^}]*)\}/m.exec(source('challenge'))?.[1] ?? '';
    expect(sorted([...letters.matchAll(/(\w+) = "/g)].map((m) => m[1] as string))).toEqual(sorted(EDGE_CHALLENGES));
    expect(fc).toContain('local URL_RE = limits.FIREWALL_URL_RE');
    expect(fc).toContain(
      'local MAX_RULES, MAX_RANGES, MAX_URL = limits.FIREWALL_LIST_RULES_PER_SITE, limits.MAX_IPS, limits.FIREWALL_URL_MAX',
    );
    expect(fc).toContain('local UA_RE = limits.USER_AGENT_REGEX_RE');
    expect(fc).toContain('local MAX_UA = limits.USER_AGENT_REGEX_MAX');
    expect(fc).toContain('local CHALLENGES = limits.EDGE_CHALLENGES');
    expect(number('firewall_check', /is_list\(r\.methods, (\d+)\)/)).toBe(FIREWALL_METHODS.length);
  });

  it('challenge.lua and validate_zone.lua: the challenge path, cookie, key period and pass lifetime', () => {
    expect(source('challenge')).toContain(`_M.PATH = "${CHALLENGE_PATH}"`);
    expect(source('challenge')).toContain(`local COOKIE, PROBE = "${CHALLENGE_COOKIE}", "rampart_probe"`);
    expect(source('challenge')).toContain(`request_url.reader("cookie_${CHALLENGE_COOKIE}")`);
    expect(number('challenge', /^local PERIOD_SECONDS = (\d+)/m)).toBe(CHALLENGE_PERIOD_SECONDS);
    expect(number('validate_zone', /^local PERIOD_SECONDS = (\d+)/m)).toBe(CHALLENGE_PERIOD_SECONDS);
    const shape = edgeChallengeSchema.shape;
    expect(shape.passSeconds.maxValue).toBe(CHALLENGE_PERIOD_SECONDS);
    expect(source('validate_zone')).toContain(`is_int(c.passSeconds, ${shape.passSeconds.minValue}, PERIOD_SECONDS)`);
    expect(source('validate_zone')).toContain(`is_array(c.keys, ${CHALLENGE_KEYS_MAX})`);
  });

  it('challenge.lua and validate_zone.lua: the bounds and default of the zone’s challenge work', () => {
    const bits = [CHALLENGE_WORK_BITS_MIN, CHALLENGE_WORK_BITS_MAX, CHALLENGE_WORK_BITS_DEFAULT];
    for (const file of ['challenge', 'validate_zone']) {
      const m = /^local WORK_BITS_MIN, WORK_BITS_MAX, WORK_BITS_DEFAULT = (\d+), (\d+), (\d+)/m.exec(source(file));
      expect(m?.slice(1).map(Number), file).toEqual(bits);
    }
  });

  it("challenge.lua and challenge_pool.lua: the slider's geometry is the agent's", () => {
    expect(number('challenge_pages', /^local SLIDER_MAX = (\d+)/m)).toBe(SLIDER_WIDTH - PIECE_BOX_WIDTH);
    const m = /^local SLIDER_WIDTH, SLIDER_HEIGHT = (\d+), (\d+)/m.exec(source('challenge_pool'));
    expect(m?.slice(1).map(Number)).toEqual([SLIDER_WIDTH, SLIDER_HEIGHT]);
    expect(source('challenge_pages')).toContain(`width=\\"${SLIDER_WIDTH}\\" height=\\"${SLIDER_HEIGHT}\\"`);
    expect(source('challenge_pages')).toContain(`width=\\"${PIECE_BOX_WIDTH}\\" height=\\"${PIECE_BOX_HEIGHT}\\"`);
    expect(source('challenge_pages')).toContain(`width=\\"${CODE_WIDTH}\\" height=\\"${CODE_HEIGHT}\\"`);
  });

  it("firewall_geo.lua: the geo rules' limits, country codes and actions; validate.lua: the database hash", () => {
    expect(source('firewall_geo')).toContain(
      'local MAX_RULES, MAX_REGIONS = contract_limits.FIREWALL_LIST_RULES_PER_SITE, contract_limits.GEO_RULE_REGIONS_MAX',
    );
    expect(source('firewall_geo')).toContain('local COUNTRY_RE = contract_limits.GEO_COUNTRY_ID_RE');
    const geos = edgeFirewallSchema.shape.geos.unwrap().element.shape;
    expect(sorted(geos.action.options)).toEqual(sorted(EDGE_RULE_ACTIONS));
    expect(source('firewall_geo')).toContain('local RULE_ACTIONS = checks.RULE_ACTIONS');
    expect(source('firewall_geo')).toContain('if not RULE_ACTIONS[r.action] then');
    expect(pattern('checks', 'HEX64_RE')).toBe(pcre(GEO_SHA256_RE));
    expect(source('validate')).toContain('re_find(geo_database, HEX64_RE, "jo")');
  });

  it("firewall_check.lua: the frequency limits' ranges and actions", () => {
    expect(source('firewall_check')).toMatch(
      /^local MAX_SECONDS, MAX_TIMES, MAX_RATE, MAX_BURST, MAX_BLOCK = limits\.FREQUENCY_SECONDS_MAX,\s+limits\.FREQUENCY_TIMES_MAX, limits\.SECOND_RATE_MAX, limits\.SECOND_BURST_MAX, limits\.BLOCK_SECONDS_MAX$/m,
    );
    // The least values: seconds, times and rate from 1; burst and blockSeconds from 0.
    const rates = edgeFirewallSchema.shape.rates.unwrap().element.shape;
    const intervals = edgeFirewallSchema.shape.intervals.unwrap().element.shape;
    const least = (field: { minValue: number | null }) => field.minValue;
    expect([intervals.seconds, intervals.times, rates.rate, rates.burst, rates.blockSeconds].map(least)).toEqual([
      1, 1, 1, 0, 0,
    ]);
    expect(source('firewall_check')).toContain('{ { "seconds", 1, MAX_SECONDS }, { "times", 1, MAX_TIMES } }');
    expect(source('firewall_check')).toContain(
      '{ { "rate", 1, MAX_RATE }, { "burst", 0, MAX_BURST }, { "blockSeconds", 0, MAX_BLOCK } }',
    );
    expect(source('firewall_check')).toContain('local ACTIONS = limits.EDGE_BLOCK_ACTIONS');
    expect(sorted(intervals.action.options)).toEqual(sorted(EDGE_BLOCK_ACTIONS));
    expect(sorted(rates.action.options)).toEqual(sorted(EDGE_BLOCK_ACTIONS));
    const antiCc = edgeFirewallSchema.shape.antiCC.unwrap().element.shape;
    expect(sorted(antiCc.errorAction.options)).toEqual(sorted(EDGE_BLOCK_ACTIONS));
  });

  it("firewall_reputation.lua: the setting's score range and actions, the list file's layout; validate.lua: its hash", () => {
    const m = /^local SCORE_MIN, SCORE_MAX = (\d+), (\d+)/m.exec(source('firewall_reputation'));
    expect([Number(m?.[1]), Number(m?.[2])]).toEqual([ABUSE_IP_SCORE_MIN, ABUSE_IP_SCORE_MAX]);
    const setting = edgeFirewallSchema.shape.reputation.unwrap().shape;
    expect(sorted(setting.action.options)).toEqual(sorted(EDGE_RULE_ACTIONS));
    expect(source('firewall_reputation')).toContain('local ACTIONS = checks.RULE_ACTIONS');
    expect(source('firewall_reputation')).toContain(`local MAGIC = "${ABUSE_IP_FILE_MAGIC}"`);
    const sizes = /^local HEADER_BYTES, V4_RECORD_BYTES, V6_RECORD_BYTES = (\d+), (\d+), (\d+)/m.exec(
      source('firewall_reputation'),
    );
    expect(sizes?.slice(1).map(Number)).toEqual([
      ABUSE_IP_FILE_HEADER_BYTES,
      ABUSE_IP_FILE_V4_RECORD_BYTES,
      ABUSE_IP_FILE_V6_RECORD_BYTES,
    ]);
    expect(source('validate')).toContain('local abuse_ips = doc.abuseIPs');
    expect(source('validate')).toContain('re_find(abuse_ips, HEX64_RE, "jo")');
    // One pattern for every 64-hex value (the challenge keys' secrets too, validate_zone.lua): none written again.
    expect(source('checks').split('{64}')).toHaveLength(2);
    for (const file of ['validate', 'validate_zone']) {
      expect(source(file), file).toContain('local HEX64_RE = checks.HEX64_RE');
      expect(source(file).split('{64}'), file).toHaveLength(1);
    }
    expect(source('validate_zone')).toContain('re_find(k.secret, HEX64_RE, "jo")');
  });

  it("blocklist.lua: the block list's default duration, report and unblock bounds, and causes", () => {
    expect(number('blocklist', /^local BLOCK_LIST_DEFAULT_SECONDS = (\d+)/m)).toBe(BLOCK_LIST_DEFAULT_SECONDS);
    expect(number('blocklist', /^local BLOCK_REPORT_MAX = (\d+)/m)).toBe(BLOCK_REPORT_MAX);
    expect(number('blocklist', /^local BLOCK_IDS_MAX = (\d+)/m)).toBe(BLOCK_IDS_MAX);
    const causes = /^local CAUSE_OF = \{([^}]*)\}/m.exec(source('blocklist'))?.[1] ?? '';
    // Every cause but `escalated` is a firewall decision's; rampart.escalate reports that one itself.
    expect(sorted([...causes.matchAll(/= "(\w+)"/g)].map((m) => m[1] as string))).toEqual(
      sorted(BLOCK_CAUSES.filter((c) => c !== 'escalated')),
    );
    expect(source('escalate')).toContain('cause = "escalated"');
    // Header rules keep deny and drop (the contract's header rule schema), read from rampart.contract_limits.
    const header = edgeFirewallSchema.shape.headers.unwrap().element.shape;
    expect(sorted(header.action.options)).toEqual(sorted(EDGE_HEADER_ACTIONS));
    expect(source('firewall_headers_check')).toContain('local ACTIONS = limits.EDGE_HEADER_ACTIONS');
  });
  it('waf_check.lua and waf.lua: groups, modes, sensitivities, fail modes, parts, rule ids, limits', () => {
    expect(filledList('waf_check', 'GROUPS')).toEqual([...WAF_GROUPS]);
    // waf.lua's GROUPS maps a rule id to its group by position: the contract's order
    const groups = /^local GROUPS = \{([^}]*)\}/m.exec(source('waf'))?.[1] ?? '';
    expect(
      groups
        .split(',')
        .map((g) => g.trim().replace(/^"(.*)"$/, '$1'))
        .filter((g) => g !== ''),
    ).toEqual([...WAF_GROUPS]);
    expect(number('waf', /^local BASE = (\d+)/m)).toBe(WAF_RULE_ID_MIN);
    expect(sorted(Object.keys(table('waf_check', 'MODES')))).toEqual(sorted(WAF_MODES));
    expect(sorted(Object.keys(table('waf_check', 'SENSITIVITIES')))).toEqual(sorted(WAF_SENSITIVITIES));
    expect(sorted(Object.keys(table('waf_check', 'FAIL_MODES')))).toEqual(sorted(WAF_FAIL_MODES));
    expect(sorted(Object.keys(table('waf_check', 'PARTS')))).toEqual(sorted(WAF_EXCLUSION_PARTS));
    expect(number('waf_check', /^local RULE_ID_MIN, RULE_ID_MAX = (\d+)/m)).toBe(WAF_RULE_ID_MIN);
    expect(number('waf_check', /^local RULE_ID_MIN, RULE_ID_MAX = \d+, (\d+)/m)).toBe(WAF_RULE_ID_MAX);
    expect(number('waf_check', /^local EXCLUSIONS_MAX, NAME_MAX, PATH_MAX = (\d+)/m)).toBe(WAF_EXCLUSIONS_PER_MODULE);
    expect(number('waf_check', /^local EXCLUSIONS_MAX, NAME_MAX, PATH_MAX = \d+, (\d+)/m)).toBe(WAF_EXCLUSION_NAME_MAX);
    expect(number('waf_check', /^local EXCLUSIONS_MAX, NAME_MAX, PATH_MAX = \d+, \d+, (\d+)/m)).toBe(
      WAF_EXCLUSION_PATH_MAX,
    );
    expect(number('waf_check', /is_array\(m\.groups, (\d+)\)/)).toBe(WAF_GROUPS.length);
    expect(pattern('waf_check', 'NAME_RE')).toBe(pcre(WAF_EXCLUSION_NAME_RE));
    expect(pattern('waf_check', 'PATH_RE')).toBe(pcre(WAF_EXCLUSION_PATH_RE));
    expect(number('waf', /^local BODY_LIMIT = (\d+) \* 1024/m) * 1024).toBe(WAF_BODY_LIMIT_BYTES);
    // the sensitivities the module names are the thresholds the engine knows
    expect(sorted(Object.keys(table('waf', 'THRESHOLD')))).toEqual(sorted(WAF_SENSITIVITIES));
  });
});
