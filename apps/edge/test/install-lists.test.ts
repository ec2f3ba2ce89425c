import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every `npm run` script (the root's and the workspaces') installs what its code loads: a script
 * that starts nginx (the edge's, or a benchmark's own) lists in its Debian install list (`apt_need
 * ...` in its shell script, or setup-node.sh's PACKAGES when it runs that) the packages of every
 * nginx module the code loads and every library the edge's Lua loads, and a script whose code starts
 * a program by its path (Chromium, nginx) lists that program's package. A fresh machine has none of them; a machine that ran
 * `npm test` first has them all, which is how a missing one goes unnoticed.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The Debian package of each nginx module, from `dpkg -S /usr/lib/nginx/modules/<file>` on Debian 12
 * (bookworm). Each entry lists the packages any of which installs the file: ndk_http_module.so is
 * libnginx-mod-http-ndk's, which libnginx-mod-http-lua depends on, so listing the Lua module
 * installs it.
 */
const MODULE_PACKAGES: Record<string, string[]> = {
  'ndk_http_module.so': ['libnginx-mod-http-ndk', 'libnginx-mod-http-lua'],
  'ngx_http_lua_module.so': ['libnginx-mod-http-lua'],
  'ngx_http_cache_purge_module.so': ['libnginx-mod-http-cache-purge'],
  'ngx_stream_module.so': ['libnginx-mod-stream'],
  'ngx_http_modsecurity_module.so': ['libnginx-mod-http-modsecurity'],
};

/**
 * The Debian package of each library the edge's Lua loads: `require "<module>"` outside the edge's
 * own rampart.* modules, and `ffi.load("<name>")`. From `dpkg -S` on Debian 12: cjson.so is
 * lua-cjson's, resty/lrucache.lua lua-resty-lrucache's, resty/core.lua and the ngx.* modules
 * lua-resty-core's, libmaxminddb.so.0 libmaxminddb0's. `ffi` and `bit` are built into LuaJIT (the
 * Lua module's own dependency); `ffi.C` is what nginx is linked with already.
 */
const LUA_PACKAGES: Record<string, string[]> = {
  ffi: [],
  bit: [],
  cjson: ['lua-cjson'],
  'cjson.safe': ['lua-cjson'],
  'resty.lrucache': ['lua-resty-lrucache'],
  'resty.core': ['lua-resty-core'],
  'ngx.balancer': ['lua-resty-core'],
  'ngx.base64': ['lua-resty-core'],
  'ngx.ssl': ['lua-resty-core'],
  'ngx.re': ['lua-resty-core'],
  'resty.core.regex': ['lua-resty-core'],
  'resty.core.base': ['lua-resty-core'],
  'resty.core.var': ['lua-resty-core'],
  'ngx.errlog': ['lua-resty-core'],
  'ngx.process': ['lua-resty-core'],
  'ffi.load:maxminddb.so.0': ['libmaxminddb0'],
};

/** The Debian package of each program a script's code starts by its path (`dpkg -S` on Debian 12). */
const PROGRAM_PACKAGES: Record<string, string[]> = {
  '/usr/bin/chromium': ['chromium'],
  '/usr/sbin/nginx': ['nginx'],
};

function luaFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return luaFiles(file);
    return entry.name.endsWith('.lua') ? [file] : [];
  });
}

/** What the edge's Lua loads from outside the repository: required modules and ffi.load names. */
function luaLoads(): Set<string> {
  const loads = new Set<string>();
  for (const file of luaFiles('apps/edge/lua')) {
    // Comments name modules in prose; only code counts.
    const code = read(file).replace(/--\[\[[\s\S]*?\]\]|--[^\n]*/g, '');
    for (const m of code.matchAll(/\brequire\s*\(?\s*["']([\w.]+)["']/g)) {
      if (!m[1]?.startsWith('rampart.')) loads.add(m[1] as string);
    }
    for (const m of code.matchAll(/ffi\.load\s*,?\s*\(?\s*["']([^"']+)["']/g)) loads.add(`ffi.load:${m[1]}`);
  }
  return loads;
}

/** The nginx modules a source file loads: every `/usr/lib/nginx/modules/<file>.so` or `${MODULES_DIR}/<file>.so`. */
function modulesIn(source: string): Set<string> {
  const found = new Set<string>();
  for (const m of source.matchAll(/(?:\/usr\/lib\/nginx\/modules|\$\{MODULES_DIR\})\/(\w+\.so)/g))
    found.add(m[1] as string);
  return found;
}

/** The packages the edge needs: nginx, its modules the renderer loads, and what its Lua loads. */
function edgeNeeds(): { what: string; packages: string[] }[] {
  const needs = [{ what: 'nginx', packages: ['nginx'] }];
  // Every file of the renderer, so a load_module moved to another of its files is still seen.
  const renderer = readdirSync(path.join(ROOT, 'apps/edge/src/nginx')).filter(
    (f) => /^[\w-]+\.ts$/.test(f) && !f.endsWith('.test.ts'),
  );
  for (const so of new Set(renderer.flatMap((f) => [...modulesIn(read(`apps/edge/src/nginx/${f}`))]))) {
    needs.push({ what: `the edge's ${so}`, packages: MODULE_PACKAGES[so] ?? [] });
  }
  for (const load of luaLoads()) {
    const packages = LUA_PACKAGES[load];
    if (packages === undefined) throw new Error(`the edge's Lua loads ${load}: add its Debian package to LUA_PACKAGES`);
    if (packages.length > 0) needs.push({ what: `the edge's Lua ${load}`, packages });
  }
  return needs;
}

/** A shell script's install list: the words after `apt_need` (continued lines joined), or setup-node.sh's PACKAGES. */
function installList(script: string): string[] {
  const text = read(script).replace(/\\\n/g, ' ');
  const list: string[] = [];
  for (const m of text.matchAll(/^\s*apt_need\s+([^\n>]*)/gm)) list.push(...(m[1] as string).trim().split(/\s+/));
  for (const m of text.matchAll(/^PACKAGES=\(([^)]*)\)/gm)) list.push(...(m[1] as string).trim().split(/\s+/));
  const setup = 'apps/edge/scripts/setup-node.sh';
  if (script !== setup && text.includes(setup)) list.push(...installList(setup));
  return list;
}

interface Script {
  name: string;
  file: string;
  /** Starts the edge (agent + nginx + Lua). */
  edge: boolean;
  /** Modules loaded by the script's own nginx configurations. */
  modules: Set<string>;
  /** Programs the script's code starts by their path (PROGRAM_PACKAGES' keys). */
  programs: Set<string>;
}

/** The package.json files whose scripts `npm run` reaches: the root's and each workspace's. */
function packageFiles(): string[] {
  const root = JSON.parse(read('package.json')) as { workspaces?: string[] };
  const dirs = (root.workspaces ?? []).flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(path.join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => path.join(pattern.slice(0, -2), e.name))
      : [pattern],
  );
  return ['package.json', ...dirs.map((d) => path.join(d, 'package.json'))].filter((f) => {
    try {
      read(f);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * A TypeScript file's text with that of the files it imports by a relative path under its own
 * folder (the benchmarks' modules), so that what a bench starts from one of its modules counts.
 */
function withLocalImports(entry: string): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = read(file);
    texts.push(text);
    for (const m of text.matchAll(/from\s+'(\.\/[^']+)\.js'/g)) {
      visit(path.join(path.dirname(file), `${m[1] as string}.ts`));
    }
  };
  visit(entry);
  return texts.join('\n');
}

/** Every `npm run` script (root and workspaces) that runs a shell script, and what its code starts. */
function scripts(): Script[] {
  const found: Script[] = [];
  for (const pkgFile of packageFiles()) {
    const dir = path.dirname(pkgFile);
    const pkg = JSON.parse(read(pkgFile)) as { name?: string; scripts?: Record<string, string> };
    for (const [name, command] of Object.entries(pkg.scripts ?? {})) {
      const script = /^bash (\S+\.sh)$/.exec(command)?.[1];
      if (script === undefined) continue;
      const file = path.join(dir, script);
      const shell = read(file);
      const ts = /npx tsx (\S+\.ts)/.exec(shell)?.[1];
      // What the script runs: its TypeScript, or the Playwright configuration it runs the browser tests with.
      const code = [
        ts === undefined ? '' : withLocalImports(ts),
        /npx playwright test/.test(shell) ? read('e2e/playwright.config.ts') : '',
      ].join('\n');
      found.push({
        name: dir === '.' ? name : `${pkg.name ?? dir} ${name}`,
        file,
        edge:
          // The vitest run takes in the edge project, which starts real edges.
          /npx vitest run/.test(shell) ||
          // The agent's bundle, run in the foreground.
          /rampart-edge\.js/.test(shell) ||
          // A benchmark that starts the edge through the edge tests' helper.
          /apps\/edge\/test\/helpers\/edge(\.js)?['"]/.test(code),
        modules: modulesIn(code),
        programs: new Set(Object.keys(PROGRAM_PACKAGES).filter((program) => code.includes(`'${program}'`))),
      });
    }
  }
  // The node's installer (the control plane's install.sh runs it; so does `npm run edge`).
  found.push({
    name: 'install.sh',
    file: 'apps/edge/scripts/setup-node.sh',
    edge: true,
    modules: new Set(),
    programs: new Set(),
  });
  return found;
}

/** What a script's install list lacks: each need none of whose packages is listed. */
function missing(script: Script): string[] {
  const list = new Set(installList(script.file));
  const needs = [
    ...(script.edge ? edgeNeeds() : []),
    ...[...script.modules].map((so) => ({ what: `its ${so}`, packages: MODULE_PACKAGES[so] ?? [] })),
    ...[...script.programs].map((program) => ({ what: `its ${program}`, packages: PROGRAM_PACKAGES[program] ?? [] })),
  ];
  if (script.modules.size > 0) needs.push({ what: 'nginx', packages: ['nginx'] });
  return needs
    .filter((need) => !need.packages.some((p) => list.has(p)))
    .map((need) => `${need.what} (${need.packages.join(' or ') || 'no known package'})`);
}

describe('install lists of the npm scripts', () => {
  it('finds the edge scripts and what the edge loads', () => {
    const edge = scripts()
      .filter((s) => s.edge)
      .map((s) => s.name);
    expect(edge).toEqual(expect.arrayContaining(['test', 'edge', 'bench:edge', 'bench:waf', 'install.sh']));
    const needs = edgeNeeds().flatMap((n) => n.packages);
    expect(needs).toEqual(
      expect.arrayContaining(['nginx', 'libnginx-mod-http-lua', 'libnginx-mod-stream', 'lua-cjson', 'libmaxminddb0']),
    );
    expect(scripts().find((s) => s.name === 'bench:l4-flood')?.modules).toEqual(new Set(['ngx_stream_module.so']));
    expect(scripts().find((s) => s.name === '@rampart/e2e test')?.programs).toEqual(new Set(['/usr/bin/chromium']));
    expect(scripts().find((s) => s.name === 'bench:console')?.programs).toEqual(new Set(['/usr/bin/chromium']));
  });

  it.each(scripts().map((s) => [s.name, s] as const))('%s installs the packages its code loads', (_name, script) => {
    expect(missing(script)).toEqual([]);
  });
});
