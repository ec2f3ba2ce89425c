// bench:waf's targets: a throw-away nginx (ModSecurity + CRS, or a plain proxy) and the real edge
// with and without its WAF module, each started on demand in front of the bench's origin.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { WAF_BODY_LIMIT_BYTES, WAF_GROUPS } from '@rampart/contract';
import { startEdge } from '../../apps/edge/test/helpers/edge.js';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import type { TargetRules } from './verdicts.js';
import { wafBenchDocument } from './waf-document.js';

const run = promisify(execFile);
const NGINX = '/usr/sbin/nginx';
const MODSECURITY_MODULE = '/usr/lib/nginx/modules/ngx_http_modsecurity_module.so';
export const TEST_HOST = 'waf-test.local';
export const WORKERS = 2;
const PARANOIA = Number(process.env.BENCH_CRS_PARANOIA ?? 1);

export interface Running {
  port: number;
  masterPid: () => Promise<number>;
  stop: () => Promise<void>;
}

export interface Target {
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

export const modsecurity: Target = {
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

export const plainProxy: Target = {
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
        await edge.push(wafBenchDocument('bench-waf-1', TEST_HOST, originPort, withWaf, WAF_SENSITIVITY));
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

export const RAMPART_WAF = rampartEdge('rampart_waf', true);
export const RAMPART_EDGE_WAF_OFF = rampartEdge('rampart_edge_waf_off', false);
