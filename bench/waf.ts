/**
 * `npm run bench:waf`: replays the WAF corpora of `../shared/waf-corpus/` through each target
 * (an nginx on loopback in front of an instrumented origin) and judges every request by the rules
 * of that directory's README; measures each target's nginx CPU per request (master + workers, from
 * /proc) under three loads. Prints one JSON object on standard output (progress on standard error):
 *
 *   {"configuration": {...}, "targets": {"<target>": {"configuration", "corpora": {"<file>": {
 *      "tpr", "fpr", "errors", "balanced_accuracy", "blocked", "passed", "challenged", ...,
 *      "by_set": {...}, "by_category": {...}}}, "cpu_us_per_request": {"benign_traffic",
 *      "get_query", "post_form_1k"}}}}
 *
 * Targets (one at a time, each with its own nginx, the same origin):
 * - `modsecurity_crs_pl1`: Debian's nginx + libnginx-mod-http-modsecurity + modsecurity-crs, the
 *   Debian `modsecurity.conf` with `SecRuleEngine On` (blocking), CRS default anomaly thresholds,
 *   paranoia level BENCH_CRS_PARANOIA (default 1; the target's name follows it).
 * - `plain_proxy`: the same nginx configuration without ModSecurity (sanity: nothing is BLOCKED).
 * - `rampart_waf`: the real edge (agent + nginx, WAF module on). Absent until the engine exists:
 *   see RAMPART_WAF below, the one place to fill in.
 *
 * Corpora are read in place (never copied); no request, cookie or token is printed: only ids,
 * verdicts and counts (BENCH_VERDICTS=<file> writes per-request verdicts there, ids only).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type EdgeDomainModules, type EdgeWafModule, WAF_BODY_LIMIT_BYTES, WAF_GROUPS } from '@rampart/contract';
import { document, domain, upstream } from '../apps/edge/test/helpers/documents.js';
import { startEdge } from '../apps/edge/test/helpers/edge.js';
import { freePort } from '../apps/edge/test/helpers/net.js';
import { type Case, CORPUS_DIR, type CorpusFile, LIMIT, readCorpora } from './waf/corpus.js';
import { materialCorpus } from './waf/material.js';
import { type Answer, ORIGIN_HEADER, type Origin, pool, send, startOrigin } from './waf/wire.js';

const run = promisify(execFile);
const NGINX = '/usr/sbin/nginx';
const MODSECURITY_MODULE = '/usr/lib/nginx/modules/ngx_http_modsecurity_module.so';
const TEST_HOST = 'waf-test.local';
const WORKERS = 2;
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 8));
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 2000);
const PARANOIA = Number(process.env.BENCH_CRS_PARANOIA ?? 1);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10_000);
const ONLY_TARGETS = process.env.BENCH_TARGETS?.split(',').map((s) => s.trim());
/** Ticks per second of utime/stime in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

const log = (msg: string) => process.stderr.write(`bench:waf: ${msg}\n`);
const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The bytes to send for a case (README "How to judge"): Host rewritten to the test name, the
 * nonce header added, `Connection: close`, Content-Length recomputed; each unless the case's
 * `no_rewrite` lists it (`all`: sent exactly as given, without a nonce).
 */
function rewrite(c: Case, nonce: string): Buffer {
  if (c.noRewrite.has('all')) return c.raw;
  const end = c.raw.indexOf('\r\n\r\n');
  if (end < 0) return c.raw;
  const body = c.raw.subarray(end + 4);
  const lines = c.raw.subarray(0, end).toString('latin1').split('\r\n');
  const [requestLine = '', ...headers] = lines;
  const name = (h: string) =>
    h
      .slice(0, Math.max(0, h.indexOf(':')))
      .trim()
      .toLowerCase();
  const out: string[] = [requestLine];
  const chunked = headers.some((h) => name(h) === 'transfer-encoding');
  for (const h of headers) {
    const n = name(h);
    if (n === 'host' && !c.noRewrite.has('host')) out.push(`${h.slice(0, h.indexOf(':'))}: ${TEST_HOST}`);
    else if (n === 'connection' && !c.noRewrite.has('connection')) continue;
    else if (n === 'content-length' && !c.noRewrite.has('content-length') && !chunked)
      out.push(`${h.slice(0, h.indexOf(':'))}: ${body.length}`);
    else if (n === 'x-test-id') continue;
    else out.push(h);
  }
  if (!c.noRewrite.has('connection')) out.push('Connection: close');
  out.push(`X-Test-Id: ${nonce}`);
  return Buffer.concat([Buffer.from(`${out.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

// ---------------------------------------------------------------------------------------------
// Verdicts and rates

type Verdict = 'blocked' | 'challenged' | 'passed' | 'error';

interface Judged {
  c: Case;
  verdict: Verdict;
  /** For errors: what went wrong (status:<n>, status:<block>-origin-reached, timeout, reset...). */
  kind?: string;
}

interface TargetRules {
  blockStatus: number;
  /** Recognises a challenge page (none for ModSecurity; the edge's marker for rampart_waf). */
  challengeMarker?: (a: Answer) => boolean;
}

function judge(a: Answer, originReceived: boolean, nonce: string | undefined, rules: TargetRules): [Verdict, string?] {
  if (a.failure && a.status === 0) return ['error', a.failure];
  if (!originReceived) {
    if (a.status === rules.blockStatus) return ['blocked'];
    if (rules.challengeMarker?.(a)) return ['challenged'];
    return ['error', `status:${a.status}`];
  }
  const fromOrigin = a.status === 200 && a.headers.get(ORIGIN_HEADER) === (nonce ?? '-');
  if (fromOrigin && !a.failure) return ['passed'];
  if (a.status === rules.blockStatus) return ['error', `status:${a.status}-origin-reached`];
  return ['error', a.failure ?? `status:${a.status}-origin-reached`];
}

interface Counts {
  attack: Record<Verdict, number>;
  benign: Record<Verdict, number>;
}

const zero = (): Record<Verdict, number> => ({ blocked: 0, challenged: 0, passed: 0, error: 0 });

function rates(counts: Counts) {
  const { attack, benign } = counts;
  const attackJudged = attack.blocked + attack.challenged + attack.passed;
  const benignJudged = benign.blocked + benign.challenged + benign.passed;
  const tpr = attackJudged > 0 ? (attack.blocked + attack.challenged) / attackJudged : null;
  const fpr = benignJudged > 0 ? (benign.blocked + benign.challenged) / benignJudged : null;
  return {
    tpr: tpr === null ? null : round(tpr),
    fpr: fpr === null ? null : round(fpr),
    errors: attack.error + benign.error,
    balanced_accuracy: tpr === null || fpr === null ? null : round((tpr + 1 - fpr) / 2),
    blocked: attack.blocked + benign.blocked,
    passed: attack.passed + benign.passed,
    challenged: attack.challenged + benign.challenged,
    attacks: { ...attack },
    benign: { ...benign },
  };
}

const headline = (r: ReturnType<typeof rates>) => ({
  tpr: r.tpr,
  fpr: r.fpr,
  errors: r.errors,
  balanced_accuracy: r.balanced_accuracy,
  blocked: r.blocked,
  passed: r.passed,
});

function summarise(judged: Judged[]) {
  const total: Counts = { attack: zero(), benign: zero() };
  const bySet = new Map<string, Counts>();
  const byCategory = new Map<string, Counts>();
  const errorKinds: Record<string, number> = {};
  for (const j of judged) {
    const label = j.c.label === 'attack' ? 'attack' : 'benign';
    total[label][j.verdict]++;
    for (const [map, key] of [
      [bySet, j.c.set],
      [byCategory, j.c.category],
    ] as const) {
      const counts = map.get(key) ?? { attack: zero(), benign: zero() };
      counts[label][j.verdict]++;
      map.set(key, counts);
    }
    if (j.verdict === 'error') errorKinds[j.kind ?? '?'] = (errorKinds[j.kind ?? '?'] ?? 0) + 1;
  }
  const breakdown = (map: Map<string, Counts>) =>
    Object.fromEntries(
      [...map.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => {
          const r = rates(v);
          return [k, { tpr: r.tpr, fpr: r.fpr, errors: r.errors, blocked: r.blocked, passed: r.passed }];
        }),
    );
  return {
    ...rates(total),
    error_kinds: errorKinds,
    by_set: breakdown(bySet),
    by_category: breakdown(byCategory),
  };
}

// ---------------------------------------------------------------------------------------------
// nginx targets

interface Running {
  port: number;
  masterPid: () => Promise<number>;
  stop: () => Promise<void>;
}

interface Target {
  name: string;
  rules: TargetRules;
  /** Why the target is not measured (printed as such), or undefined when it is. */
  absent?: string;
  /** Whether an obvious attack (a script tag in the query) must be blocked: checked before measuring. */
  expectsBlocking: boolean;
  configuration: () => Promise<Record<string, unknown>>;
  start: (work: string, originPort: number) => Promise<Running>;
}

async function dpkgVersion(pkg: string): Promise<string | null> {
  // dpkg-query's own ${Version} field syntax, not a template.
  const format = ['-f=$', '{Version}'].join('');
  const { stdout } = await run('dpkg-query', ['-W', format, pkg]).catch(() => ({ stdout: '' }));
  return stdout.trim() || null;
}

/** A throw-away nginx with its own prefix (like bench/edge.ts's baseline): proxy to the origin. */
async function startNginx(dir: string, originPort: number, modsecurityRules?: string): Promise<Running> {
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  // Workers run as nobody (nginx started as root): they must reach the prefix's temp paths.
  await chmod(dir, 0o755);
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `${modsecurityRules ? `load_module ${MODSECURITY_MODULE};\n` : ''}worker_processes ${WORKERS};
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/tmp-body; proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fcgi; uwsgi_temp_path ${dir}/tmp-uwsgi; scgi_temp_path ${dir}/tmp-scgi;
  # The edge's default body limit (apps/edge render.ts clientMaxBodyMegabytes).
  client_max_body_size 64m;
  access_log ${dir}/logs/access.log combined buffer=64k flush=1s;
  upstream origin { server 127.0.0.1:${originPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port} default_server;
    server_name ${TEST_HOST};
${modsecurityRules ? `    modsecurity on;\n    modsecurity_rules_file ${modsecurityRules};\n` : ''}    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  const args = ['-p', dir, '-c', conf, '-e', `${dir}/logs/error.log`];
  await run(NGINX, ['-t', '-q', ...args]);
  await run(NGINX, args);
  const masterPid = async () => Number((await readFile(path.join(dir, 'nginx.pid'), 'utf8')).trim());
  return {
    port,
    masterPid,
    stop: async () => {
      const pid = await masterPid().catch(() => 0);
      await run(NGINX, [...args, '-s', 'quit']).catch(() => undefined);
      // Wait for the master to be gone (quit lets workers finish), then make sure.
      for (let i = 0; pid > 0 && i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      if (pid > 0) process.kill(pid, 'SIGKILL');
    },
  };
}

const modsecurity: Target = {
  name: `modsecurity_crs_pl${PARANOIA}`,
  rules: { blockStatus: 403 },
  expectsBlocking: true,
  configuration: async () => ({
    nginx: await dpkgVersion('nginx'),
    libmodsecurity3: await dpkgVersion('libmodsecurity3'),
    'libnginx-mod-http-modsecurity': await dpkgVersion('libnginx-mod-http-modsecurity'),
    'modsecurity-crs': await dpkgVersion('modsecurity-crs'),
    engine: 'ModSecurity 3 (SecRuleEngine On: blocking)',
    rule_set: 'OWASP CRS (Debian modsecurity-crs: crs-setup.conf, the 900/999 exclusion files, rules/*.conf)',
    base_config: '/etc/nginx/modsecurity.conf (Debian), with SecRuleEngine On, SecStatusEngine Off, SecAuditEngine Off',
    paranoia_level: PARANOIA,
    anomaly_thresholds: 'CRS defaults (inbound 5, outbound 4)',
    request_body_limit: 'SecRequestBodyLimit 13107200, SecRequestBodyNoFilesLimit 131072, Reject',
    nginx_client_max_body_size: '64m',
    block_status: 403,
  }),
  start: async (work, originPort) => {
    const dir = path.join(work, 'modsecurity');
    const tmp = path.join(dir, 'modsec-tmp');
    await mkdir(tmp, { recursive: true });
    await chmod(tmp, 0o1777);
    const rules = path.join(dir, 'modsecurity-main.conf');
    await writeFile(
      rules,
      `# Debian's recommended ModSecurity configuration, switched to blocking; no call out (status
# engine), no audit log (nginx's error log has every match).
Include /etc/nginx/modsecurity.conf
SecRuleEngine On
SecStatusEngine Off
SecAuditEngine Off
SecTmpDir ${tmp}/
SecDataDir ${tmp}/
# What Debian's owasp-crs.load includes (libmodsecurity has no IncludeOptional); the paranoia
# level is set here (its 900000 rule is commented out in crs-setup.conf).
Include /etc/modsecurity/crs/crs-setup.conf
SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:tx.paranoia_level=${PARANOIA}"
Include /etc/modsecurity/crs/REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf
Include /usr/share/modsecurity-crs/rules/*.conf
Include /etc/modsecurity/crs/RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf
`,
    );
    await chmod(dir, 0o755);
    return startNginx(dir, originPort, rules);
  },
};

const plainProxy: Target = {
  name: 'plain_proxy',
  rules: { blockStatus: 403 },
  expectsBlocking: false,
  configuration: async () => ({
    nginx: await dpkgVersion('nginx'),
    engine: 'none (the same nginx configuration without ModSecurity)',
    nginx_client_max_body_size: '64m',
  }),
  start: (work, originPort) => startNginx(path.join(work, 'plain'), originPort),
};

/**
 * `rampart_waf`: the real edge (apps/edge: its nginx.conf rendered by the agent's renderer, its Lua,
 * the data-plane document pushed through the agent's admin client, as apps/edge/test/helpers/edge.ts
 * starts it for the edge tests) with one domain, `waf-test.local`, proxying to the origin and bound
 * to a WAF module in block mode, every group on, sensitivity medium (BENCH_WAF_SENSITIVITY), fail
 * open. Blocks answer 403 with the edge's "Access denied" page. `rampart_edge_waf_off` is the same
 * edge and document without the module: the CPU the WAF adds is the difference.
 */
const WAF_SENSITIVITY = (process.env.BENCH_WAF_SENSITIVITY ?? 'medium') as 'low' | 'medium' | 'high';

function rampartEdge(name: string, withWaf: boolean): Target {
  return {
    name,
    rules: { blockStatus: 403 },
    expectsBlocking: withWaf,
    configuration: async () => ({
      nginx: await dpkgVersion('nginx'),
      'libnginx-mod-http-lua': await dpkgVersion('libnginx-mod-http-lua'),
      engine: withWaf
        ? 'Rampart WAF (apps/edge/lua/rampart/waf*.lua): SQL and HTML tokenizers, anchored PCRE rules for the other groups'
        : 'none (the same edge without a WAF module)',
      mode: withWaf ? 'block' : null,
      groups: withWaf ? [...WAF_GROUPS] : [],
      sensitivity: withWaf ? WAF_SENSITIVITY : null,
      fail_mode: withWaf ? 'open' : null,
      body_limit_bytes: WAF_BODY_LIMIT_BYTES,
      nginx_workers: WORKERS,
      block_status: 403,
    }),
    start: async (_work, originPort) => {
      const edge = await startEdge({ workerProcesses: WORKERS });
      try {
        const modules: EdgeDomainModules = {
          customHeader: null,
          urlRedirect: null,
          cors: null,
          proxyRewrite: null,
          luaAcl: null,
          tokenAuth: null,
          waf: withWaf ? 1 : null,
        };
        const module: EdgeWafModule = {
          id: 1,
          type: 'waf',
          siteId: 1,
          mode: 'block',
          groups: [...WAF_GROUPS],
          sensitivity: WAF_SENSITIVITY,
          failMode: 'open',
          exclusions: [],
        };
        await edge.push(
          document('bench-waf-1', [domain(1, TEST_HOST, [upstream(originPort)], { modules })], [], [], {
            modules: withWaf ? [module] : [],
          }),
        );
      } catch (err) {
        await edge.stop();
        throw err;
      }
      const pidFile = path.join(edge.prefix, 'logs/nginx.pid');
      return {
        port: edge.httpPort,
        masterPid: async () => Number((await readFile(pidFile, 'utf8')).trim()),
        stop: () => edge.stop(),
      };
    },
  };
}

const RAMPART_WAF = rampartEdge('rampart_waf', true);
const RAMPART_EDGE_WAF_OFF = rampartEdge('rampart_edge_waf_off', false);

// ---------------------------------------------------------------------------------------------
// CPU of nginx (master + workers) from /proc

interface CpuReading {
  /** utime + stime of the master and its workers, in clock ticks (1/100 s). */
  ticks: number;
  /** Their time on CPU from /proc/<pid>/schedstat, in nanoseconds (the same, without tick rounding). */
  ns: number;
}

async function nginxCpu(master: number): Promise<CpuReading> {
  const reading = { ticks: 0, ns: 0 };
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid … utime(14) stime(15): comm may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length < 13) continue;
    if (Number(entry) !== master && Number(fields[1]) !== master) continue;
    reading.ticks += Number(fields[11]) + Number(fields[12]);
    const sched = await readFile(`/proc/${entry}/schedstat`, 'utf8').catch(() => '');
    reading.ns += Number(sched.split(' ')[0]) || 0;
  }
  return reading;
}

interface CpuMeasure<T> {
  result: T;
  /** µs of nginx CPU (utime + stime) per request, for n requests. */
  us: (n: number) => number;
  /** The same from schedstat (finer than the 10 ms ticks). */
  schedUs: (n: number) => number;
  ticks: number;
}

async function measureCpu<T>(master: number, requests: () => Promise<T>): Promise<CpuMeasure<T>> {
  const before = await nginxCpu(master);
  const result = await requests();
  // Let workers finish the last requests' logging before reading.
  await new Promise((r) => setTimeout(r, 200));
  const after = await nginxCpu(master);
  const ticks = after.ticks - before.ticks;
  return {
    result,
    ticks,
    us: (n: number) => round((ticks * 1e6) / CLOCK_TICKS / Math.max(1, n), 1),
    schedUs: (n: number) => round((after.ns - before.ns) / 1e3 / Math.max(1, n), 1),
  };
}

/**
 * N requests over CONCURRENCY connections, kept alive or one per request (`Connection: close`);
 * answers the count of each status.
 */
async function repeat(port: number, n: number, keepAlive: boolean, method: string, urlPath: string, body?: string) {
  const agent = new http.Agent({ keepAlive, maxSockets: CONCURRENCY });
  const statuses: Record<string, number> = {};
  try {
    await pool(
      Array.from({ length: n }, (_, i) => i),
      CONCURRENCY,
      () =>
        new Promise<void>((resolve) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method,
              path: urlPath,
              agent,
              headers: {
                host: TEST_HOST,
                'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
                accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
                'accept-language': 'en-US,en;q=0.5',
                ...(body
                  ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
                  : {}),
              },
              timeout: TIMEOUT_MS,
            },
            (res) => {
              res.resume();
              res.on('end', () => {
                statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
                resolve();
              });
            },
          );
          req.on('timeout', () => req.destroy(new Error('timeout')));
          req.on('error', () => {
            statuses.error = (statuses.error ?? 0) + 1;
            resolve();
          });
          req.end(body);
        }),
    );
  } finally {
    agent.destroy();
  }
  return statuses;
}

/** A 1 KB urlencoded form of ordinary fields (a sign-up / checkout shape). */
function formBody(): string {
  const fields = [
    'first_name=Marie',
    'last_name=Dupont',
    'email=marie.dupont%40example.com',
    'phone=%2B33%206%2012%2034%2056%2078',
    'address=12%20rue%20des%20Lilas',
    'city=Lyon',
    'postcode=69003',
    'country=FR',
    'newsletter=on',
    'comment=Please%20leave%20the%20parcel%20with%20the%20neighbour%20if%20nobody%20is%20at%20home',
  ];
  let s = fields.join('&');
  for (let i = 0; s.length < 1024; i++) s += `&item_${i}=sku-${1000 + i}`;
  return s.slice(0, 1024).replace(/[&=]$/, 'x');
}

/**
 * A urlencoded form just under WAF_BODY_LIMIT_BYTES: ordinary fields, or (pathological) values made
 * only of bytes the detectors look at (quotes, brackets, operators, "<", "%"), which no pre-filter
 * can skip.
 */
function bigForm(pathological: boolean): string {
  const limit = WAF_BODY_LIMIT_BYTES - 1024;
  // every value distinct (the engine reads a repeated value once)
  const unit = (i: number) =>
    pathological ? `f=${encodeURIComponent(`'(<a/="\`;|&\${${i}`)}&` : `field=some+ordinary+text+value+${i}&`;
  let body = '';
  for (let i = 0; body.length < limit; i++) body += unit(i);
  return body.slice(0, limit).replace(/&[^&]*$/, '');
}

// ---------------------------------------------------------------------------------------------

let nonceCounter = 0;
const noncePrefix = randomBytes(4).toString('hex');
const newNonce = () => `${noncePrefix}-${(nonceCounter++).toString(36)}`;

async function replay(port: number, origin: Origin, corpus: CorpusFile, rules: TargetRules): Promise<Judged[]> {
  const judged: Judged[] = [];
  const one = async (c: Case) => {
    const exclusive = c.noRewrite.has('all');
    const nonce = exclusive ? undefined : newNonce();
    const before = origin.withoutNonce();
    const method = (c.raw.subarray(0, 16).toString('latin1').split(' ')[0] ?? '').toUpperCase();
    const answer = await send(port, nonce ? rewrite(c, nonce) : c.raw, method);
    if (exclusive) await new Promise((r) => setTimeout(r, 100));
    const reached = nonce ? origin.received.has(nonce) : origin.withoutNonce() > before;
    const [verdict, kind] = judge(answer, reached, nonce, rules);
    judged.push({ c, verdict, kind });
  };
  // Cases sent without a nonce (`no_rewrite: all`) are judged alone, after the others, so that a
  // request the origin receives without a nonce can only be theirs.
  await pool(
    corpus.cases.filter((c) => !c.noRewrite.has('all')),
    CONCURRENCY,
    one,
  );
  for (const c of corpus.cases.filter((c) => c.noRewrite.has('all'))) await one(c);
  return judged;
}

async function measureTarget(target: Target, work: string, origin: Origin, corpora: CorpusFile[]) {
  log(`${target.name}: starting nginx`);
  const running = await target.start(work, origin.port);
  stopOnSignal.add(running.stop);
  try {
    const master = await running.masterPid();
    // Sanity, before measuring: a benign request passes; an obvious attack is blocked by a WAF
    // target (not left in detection-only mode) and passes the plain proxy.
    const probe = async (id: string, raw: string) => {
      const c: Case = {
        file: '',
        id,
        label: 'benign',
        set: '',
        category: '',
        raw: Buffer.from(raw),
        noRewrite: new Set(),
        gtwExcluded: false,
      };
      const nonce = newNonce();
      const answer = await send(running.port, rewrite(c, nonce), 'GET');
      return judge(answer, origin.received.has(nonce), nonce, target.rules)[0];
    };
    const benign = await probe('benign-probe', 'GET /?q=hello HTTP/1.1\r\nHost: x\r\n\r\n');
    if (benign !== 'passed') throw new Error(`${target.name}: a benign probe was not PASSED but ${benign}`);
    const attack = await probe(
      'attack-probe',
      'GET /?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    const expected = target.expectsBlocking ? 'blocked' : 'passed';
    if (attack !== expected) throw new Error(`${target.name}: an attack probe was ${attack}, not ${expected}`);
    const result: Record<string, unknown> = {
      configuration: await target.configuration(),
      loadavg_at_start: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).map(Number),
    };
    const files: Record<string, unknown> = {};
    const cpu: Record<string, number | null> = {};
    const detail: Record<string, unknown> = {};
    for (const corpus of corpora) {
      log(`${target.name}: ${corpus.name} (${corpus.cases.length} requests)`);
      const started = performance.now();
      const measured = await measureCpu(master, () => replay(running.port, origin, corpus, target.rules));
      const judged = measured.result;
      if (corpus.name === 'benign-traffic') {
        cpu.benign_traffic = measured.us(judged.length);
        detail.benign_traffic = {
          requests: judged.length,
          ticks: measured.ticks,
          schedstat_us: measured.schedUs(judged.length),
        };
      }
      const summary = summarise(judged);
      files[corpus.name] = {
        requests: judged.length,
        skipped: corpus.skipped,
        info_ignored: corpus.info,
        ...summary,
        ...(corpus.name === 'gotestwaf'
          ? { without_gtw_excluded: headline(summarise(judged.filter((j) => !j.c.gtwExcluded))) }
          : {}),
      };
      log(
        `${target.name}: ${corpus.name}: tpr ${summary.tpr} fpr ${summary.fpr} errors ${summary.errors} in ${Math.round((performance.now() - started) / 1000)} s`,
      );
      if (process.env.BENCH_VERDICTS) {
        const lines = judged.map((j) =>
          JSON.stringify({
            target: target.name,
            file: j.c.file,
            id: j.c.id,
            label: j.c.label,
            verdict: j.verdict,
            kind: j.kind,
          }),
        );
        await writeFile(process.env.BENCH_VERDICTS, `${lines.join('\n')}\n`, { flag: 'a' });
      }
    }
    if (!('benign_traffic' in cpu)) cpu.benign_traffic = null;
    log(`${target.name}: CPU loads (${CPU_REQUESTS} requests each)`);
    // Warm-up (keep-alive pools, worker caches), then the measured loads: each shape kept alive
    // (the figures named in the issue) and with a new connection per request (like the replay).
    await repeat(running.port, Math.min(200, CPU_REQUESTS), true, 'GET', '/search?q=blue+running+shoes&page=2');
    const form = formBody();
    const loads: [string, boolean, string, string, string?][] = [
      ['get_query', true, 'GET', '/search?q=blue+running+shoes&page=2&sort=price'],
      ['post_form_1k', true, 'POST', '/checkout', form],
      ['get_query_new_connection', false, 'GET', '/search?q=blue+running+shoes&page=2&sort=price'],
      ['post_form_1k_new_connection', false, 'POST', '/checkout', form],
    ];
    // Bodies at the WAF's inspection limit (WAF_BODY_LIMIT_BYTES): an ordinary form, and a
    // pathological one (every byte something a detector looks at), fewer requests each.
    loads.push(['post_form_128k', true, 'POST', '/upload', bigForm(false)]);
    loads.push(['post_form_128k_pathological', true, 'POST', '/upload', bigForm(true)]);
    for (const [name, keepAlive, method, urlPath, body] of loads) {
      const n = body && body.length > 4096 ? Math.min(CPU_REQUESTS, 500) : CPU_REQUESTS;
      const m = await measureCpu(master, () => repeat(running.port, n, keepAlive, method, urlPath, body));
      cpu[name] = m.us(n);
      detail[name] = {
        requests: n,
        ticks: m.ticks,
        schedstat_us: m.schedUs(n),
        statuses: m.result,
      };
    }
    result.corpora = files;
    result.cpu_us_per_request = cpu;
    result.cpu_detail = detail;
    log(`${target.name}: CPU µs per request ${JSON.stringify(cpu)} ${JSON.stringify(detail)}`);
    return result;
  } finally {
    stopOnSignal.delete(running.stop);
    await running.stop();
  }
}

/** What to stop if the bench is interrupted (SIGINT, SIGTERM): the nginx of the running target. */
const stopOnSignal = new Set<() => Promise<void>>();
let workDir: string | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping nginx`);
    void Promise.all([...stopOnSignal].map((stop) => stop().catch(() => undefined)))
      .then(() => (workDir && !process.env.BENCH_KEEP ? rm(workDir, { recursive: true, force: true }) : undefined))
      .finally(() => process.exit(1));
  });
}

async function main() {
  const corpora = await readCorpora(materialCorpus());
  const targets = [modsecurity, plainProxy, RAMPART_EDGE_WAF_OFF, RAMPART_WAF].filter(
    (t) => !ONLY_TARGETS || ONLY_TARGETS.includes(t.name),
  );
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-bench-waf-'));
  // nginx's workers run as nobody (the bench runs as root): they must reach the temp paths below.
  await chmod(work, 0o755);
  workDir = work;
  const origin = await startOrigin();
  try {
    const out: Record<string, unknown> = {
      configuration: {
        corpus_dir: CORPUS_DIR,
        corpora: Object.fromEntries(
          corpora.map((c) => [c.name, { judged: c.cases.length, skipped: c.skipped, info_ignored: c.info }]),
        ),
        limit_per_file: LIMIT ?? null,
        concurrency: CONCURRENCY,
        timeout_ms: TIMEOUT_MS,
        nginx_workers: WORKERS,
        test_host: TEST_HOST,
        cpu: [
          'nginx master + workers utime+stime from /proc (cpu_detail: the tick counts, and the same from schedstat)',
          'benign_traffic: during the corpus replay (one connection per request)',
          'get_query, post_form_1k: CPU_REQUESTS each, kept alive over the concurrency connections',
          '*_new_connection: the same with Connection: close',
        ].join('; '),
        cpu_requests: CPU_REQUESTS,
        cores: (await readFile('/proc/cpuinfo', 'utf8')).split('\n').filter((l) => l.startsWith('processor')).length,
        loadavg_at_start: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).map(Number),
      },
    };
    const results: Record<string, unknown> = {};
    for (const target of targets) {
      if (target.absent) {
        results[target.name] = { absent: target.absent };
        log(`${target.name}: absent (${target.absent})`);
        continue;
      }
      results[target.name] = await measureTarget(target, work, origin, corpora);
    }
    out.targets = results;
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await origin.stop();
    // BENCH_KEEP=1 keeps the temp prefix (nginx logs: they hold the corpora's cookies; not for publishing).
    if (process.env.BENCH_KEEP) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:waf: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
