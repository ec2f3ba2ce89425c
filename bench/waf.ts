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
 *   see RAMPART_WAF in bench/waf/targets.ts.
 *
 * Corpora are read in place (never copied); no request, cookie or token is printed: only ids,
 * verdicts and counts (BENCH_VERDICTS=<file> writes per-request verdicts there, ids only).
 */

import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Case, CORPUS_DIR, type CorpusFile, LIMIT, readCorpora } from './waf/corpus.js';
import { bigForm, CONCURRENCY, formBody, measureCpu, repeat, TIMEOUT_MS } from './waf/load.js';
import { materialCorpus } from './waf/material.js';
import {
  modsecurity,
  plainProxy,
  RAMPART_EDGE_WAF_OFF,
  RAMPART_WAF,
  type Target,
  TEST_HOST,
  WORKERS,
} from './waf/targets.js';
import { headline, type Judged, judge, summarise, type TargetRules } from './waf/verdicts.js';
import { type Origin, pool, send, startOrigin } from './waf/wire.js';

const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 2000);
const ONLY_TARGETS = process.env.BENCH_TARGETS?.split(',').map((s) => s.trim());

const log = (msg: string) => process.stderr.write(`bench:waf: ${msg}\n`);

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
