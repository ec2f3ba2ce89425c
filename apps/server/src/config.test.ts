import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { defaultCnameDomain } from './modules/domains/cname-settings.service.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rampart-cfg-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('defaults to loopback, port 8080 and the embedded database', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir }, dataDir);
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, dataDir, databaseUrl: undefined, consoleDir: null });
  });

  it('keeps private origins and private outgoing targets apart, both refused unless their own switch is on', () => {
    const dataDir = tempDir();
    const off = loadConfig({ DATA_DIR: dataDir }, dataDir);
    expect([off.allowPrivateOrigins, off.allowPrivateTargets]).toEqual([false, false]);
    const targets = loadConfig({ DATA_DIR: dataDir, RAMPART_ALLOW_PRIVATE_TARGETS: '1' }, dataDir);
    expect([targets.allowPrivateOrigins, targets.allowPrivateTargets]).toEqual([false, true]);
    const origins = loadConfig({ DATA_DIR: dataDir, RAMPART_ALLOW_PRIVATE_ORIGINS: 'yes' }, dataDir);
    expect([origins.allowPrivateOrigins, origins.allowPrivateTargets]).toEqual([true, false]);
  });

  it('takes the DNS servers and timeout of the CNAME check, refusing what the resolver would not', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }, dataDir)).toMatchObject({ dnsServers: [], dnsTimeoutMs: 5000 });
    const set = loadConfig(
      { DATA_DIR: dataDir, RAMPART_DNS_SERVERS: ' 127.0.0.1:5353, [::1]:53 ', RAMPART_DNS_TIMEOUT_MS: '800' },
      dataDir,
    );
    expect(set).toMatchObject({ dnsServers: ['127.0.0.1:5353', '[::1]:53'], dnsTimeoutMs: 800 });
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_DNS_SERVERS: 'dns.example' }, dataDir)).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_DNS_TIMEOUT_MS: '5' }, dataDir)).toThrow(ConfigError);
  });

  it('takes no licence key to trust from the environment (only the built-in keys, or the test harness)', () => {
    const dataDir = tempDir();
    const publicKey = 'FwMZPFb/5k2hW2+Uo284BXVnjr1O3JbtC8UjFfvMpcX=';
    const config = loadConfig({ DATA_DIR: dataDir, RAMPART_LICENSE_TEST_PUBLIC_KEY: `env-1:${publicKey}` }, dataDir);
    expect(JSON.stringify(config)).not.toContain(publicKey);
    expect(JSON.stringify(config)).not.toContain('env-1');
  });

  it('serves /metrics only with a token of at least 32 printable characters', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }, dataDir).metricsToken).toBeNull();
    const token = 'a'.repeat(32);
    expect(loadConfig({ DATA_DIR: dataDir, RAMPART_METRICS_TOKEN: token }, dataDir).metricsToken).toBe(token);
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_METRICS_TOKEN: 'short' }, dataDir)).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_METRICS_TOKEN: `${token} x` }, dataDir)).toThrow(ConfigError);
  });

  it('derives the default CNAME domain from PUBLIC_URL when it names a DNS domain', () => {
    expect(defaultCnameDomain('https://cdn.Example.com:8443/')).toBe('cname.cdn.example.com');
    for (const url of [undefined, 'http://127.0.0.1:8080', 'http://[::1]/', 'http://localhost:8080', 'nonsense']) {
      expect(defaultCnameDomain(url)).toBe('cname.rampart.invalid');
    }
  });

  it('finds the agent release next to the control plane, or takes RAMPART_AGENT_RELEASE_DIR', () => {
    const dataDir = tempDir();
    // From apps/server/src (here), apps/edge holds the Lua package: the repository's own agent.
    const repo = loadConfig({ DATA_DIR: dataDir }, import.meta.dirname);
    expect(repo.agentReleaseDir).toBe(path.resolve(import.meta.dirname, '../../edge'));
    expect(loadConfig({ DATA_DIR: dataDir }, dataDir).agentReleaseDir).toBeNull();
    const given = loadConfig({ DATA_DIR: dataDir, RAMPART_AGENT_RELEASE_DIR: 'rel' }, dataDir);
    expect(given.agentReleaseDir).toBe(path.resolve('rel'));
  });

  it('makes a signing secret once and reads the same one back', () => {
    const dataDir = tempDir();
    const a = loadConfig({ DATA_DIR: dataDir }, dataDir).secret;
    const b = loadConfig({ DATA_DIR: dataDir }, dataDir).secret;
    expect(a).toHaveLength(64);
    expect(b).toBe(a);
    expect(readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim()).toBe(a);
  });

  it('prefers RAMPART_SECRET and refuses a short one', () => {
    const dataDir = tempDir();
    const secret = 'x'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, RAMPART_SECRET: secret }, dataDir).secret).toBe(secret);
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_SECRET: 'short' }, dataDir)).toThrow(ConfigError);
  });

  it('takes the access-token signing secret and the previous ones of a rotation', () => {
    const dataDir = tempDir();
    const main = 'm'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, RAMPART_SECRET: main }, dataDir).tokenSecrets).toEqual({
      current: main,
      previous: [],
    });
    const rotated = loadConfig(
      {
        DATA_DIR: dataDir,
        RAMPART_SECRET: main,
        RAMPART_TOKEN_SECRET: 'n'.repeat(40),
        RAMPART_TOKEN_PREVIOUS_SECRETS: ` ${main} ,${'o'.repeat(32)},`,
      },
      dataDir,
    ).tokenSecrets;
    expect(rotated).toEqual({ current: 'n'.repeat(40), previous: [main, 'o'.repeat(32)] });
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_TOKEN_SECRET: 'short' }, dataDir)).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_TOKEN_PREVIOUS_SECRETS: 'short' }, dataDir)).toThrow(
      ConfigError,
    );
  });

  it.each(['-1', '65536', 'abc', '80.5'])('refuses PORT=%s', (port) => {
    const dataDir = tempDir();
    expect(() => loadConfig({ DATA_DIR: dataDir, PORT: port }, dataDir)).toThrow(ConfigError);
  });

  it('takes PORT, HOST and DATABASE_URL from the environment', () => {
    const dataDir = tempDir();
    const config = loadConfig(
      { DATA_DIR: dataDir, PORT: '18080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://x/y' },
      dataDir,
    );
    expect(config).toMatchObject({ port: 18080, host: '0.0.0.0', databaseUrl: 'postgres://x/y' });
  });

  it('reads the access-token lifetime and refuses nonsense', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }, dataDir).accessTokenTtlSeconds).toBe(900);
    expect(loadConfig({ DATA_DIR: dataDir, RAMPART_ACCESS_TOKEN_TTL: '60' }, dataDir).accessTokenTtlSeconds).toBe(60);
    for (const bad of ['0', '-5', '1.5', 'soon', '86401']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_ACCESS_TOKEN_TTL: bad }, dataDir)).toThrow(ConfigError);
    }
  });

  it("reads the embedded analytics store's DuckDB threads and refuses nonsense", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }, dataDir).analyticsThreads).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir, RAMPART_ANALYTICS_THREADS: '4' }, dataDir).analyticsThreads).toBe(4);
    for (const bad of ['0', '-1', '1.5', 'all', '65']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, RAMPART_ANALYTICS_THREADS: bad }, dataDir)).toThrow(ConfigError);
    }
  });

  it('takes a ClickHouse cluster with its shards, refusing one without a name, shards or CLICKHOUSE_URL', () => {
    const dataDir = tempDir();
    const url = 'http://u:p@ch1:8123/rampart';
    expect(loadConfig({ DATA_DIR: dataDir, CLICKHOUSE_URL: url }, dataDir).clickhouseCluster).toBeUndefined();
    expect(
      loadConfig(
        {
          DATA_DIR: dataDir,
          CLICKHOUSE_URL: url,
          CLICKHOUSE_CLUSTER: 'c_1',
          CLICKHOUSE_SHARDS: 'http://ch1:8123, http://ch2:8123',
        },
        dataDir,
      ).clickhouseCluster,
    ).toEqual({ name: 'c_1', shards: ['http://ch1:8123', 'http://ch2:8123'] });
    for (const bad of [
      { CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: 'c_1' },
      { CLICKHOUSE_URL: url, CLICKHOUSE_SHARDS: 'http://ch1:8123' },
      { CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: 'c-1;', CLICKHOUSE_SHARDS: 'http://ch1:8123' },
      { CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: 'c_1', CLICKHOUSE_SHARDS: 'ch1:8123' },
      { CLICKHOUSE_CLUSTER: 'c_1', CLICKHOUSE_SHARDS: 'http://ch1:8123' },
    ]) {
      expect(() => loadConfig({ DATA_DIR: dataDir, ...bad }, dataDir)).toThrow(ConfigError);
    }
  });
});
