import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import { defaultLuaDir, parseCli, parsePortMap, UsageError } from './cli.js';
import { reportedHostname } from './process/host.js';

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const result = parseCli(argv, env);
  if (result.kind !== 'run') throw new Error(`expected options, got ${result.kind}`);
  return result.options;
}

describe('rampart-edge command line', () => {
  it('reads flags, with the environment as fallback and defaults for the rest', () => {
    const options = run(['--control-plane', 'https://cp.example.com', '--join-token', 'jt_1', '--ips', '10.0.0.1'], {
      RAMPART_EDGE_STATE_DIR: '/var/lib/edge-test',
      RAMPART_CONTROL_PLANE: 'http://ignored.example.com',
    });
    expect(options).toMatchObject({
      controlPlane: 'https://cp.example.com',
      joinToken: 'jt_1',
      stateDir: '/var/lib/edge-test',
      nginxBinary: '/usr/sbin/nginx',
      luaDir: defaultLuaDir(),
      ips: ['10.0.0.1'],
      workerProcesses: 'auto',
      listenAddress: undefined,
    });
    expect(options.portMap.size).toBe(0);
    expect(defaultLuaDir()).toMatch(/\/apps\/edge\/lua$/);
  });

  it('accepts the form the control plane prints: join --token', () => {
    const options = run(['join', '--control-plane', 'http://127.0.0.1:8080', '--token', 'jt_2', '--ips', '::1']);
    expect(options).toMatchObject({ controlPlane: 'http://127.0.0.1:8080', joinToken: 'jt_2', ips: ['::1'] });
  });

  it('parses a port map', () => {
    expect([...parsePortMap('80=18080, 443=18443')]).toEqual([
      [80, 18080],
      [443, 18443],
    ]);
    expect(parsePortMap('').size).toBe(0);
    for (const bad of ['80', '80=0', '80=1=2', 'x=1', '80=1,80=2']) expect(() => parsePortMap(bad)).toThrow(UsageError);
  });

  it('refuses what nginx.conf or the contract would not accept', () => {
    const cases: [string[], RegExp][] = [
      [['--state-dir', '/tmp/a b'], /--state-dir/],
      [['--control-plane', 'ftp://x'], /http/],
      [['--listen-address', 'localhost'], /--listen-address/],
      [['--ips', '10.0.0.1,nope'], /nope/],
      [['--worker-processes', '0'], /--worker-processes/],
      [['--bogus'], /bogus/],
      [['status'], /unexpected argument/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseCli(argv, { RAMPART_EDGE_IPS: '127.0.0.1' })).toThrow(message);
    }
    expect(parseCli(['--help'], {}).kind).toBe('help');
    expect(parseCli(['-v'], {}).kind).toBe('version');
  });

  it('accepts an old --admin-port and ignores it with a warning', () => {
    const result = parseCli(['--admin-port', '9180', '--ips', '10.0.0.1'], {});
    if (result.kind !== 'run') throw new Error('expected options');
    expect(result.warnings).toEqual([expect.stringMatching(/--admin-port .* ignored/)]);
    expect(result.options).not.toHaveProperty('adminPort');
    const plain = parseCli(['--ips', '10.0.0.1'], {});
    expect(plain.kind === 'run' && plain.warnings).toEqual([]);
  });

  it('serves the node metrics on 9145 unless told another port or 0 (none)', () => {
    expect(run(['--ips', '10.0.0.1']).metricsPort).toBe(9145);
    expect(run(['--ips', '10.0.0.1', '--metrics-port', '19145']).metricsPort).toBe(19145);
    expect(run(['--ips', '10.0.0.1'], { RAMPART_EDGE_METRICS_PORT: '0' }).metricsPort).toBeNull();
    expect(() => run(['--ips', '10.0.0.1', '--metrics-port', '70000'])).toThrow(UsageError);
  });

  it('takes the DNS servers of origin host names and the private-origin allowance', () => {
    expect(run(['--ips', '10.0.0.1']).origins).toEqual({ allowPrivate: false });
    expect(
      run(['--ips', '10.0.0.1', '--origin-dns', '127.0.0.1:5353, [::1]:53,9.9.9.9'], {
        RAMPART_ALLOW_PRIVATE_ORIGINS: 'yes',
      }).origins,
    ).toEqual({ servers: ['127.0.0.1:5353', '[::1]:53', '9.9.9.9'], allowPrivate: true });
    expect(run(['--ips', '10.0.0.1', '--allow-private-origins']).origins?.allowPrivate).toBe(true);
    for (const bad of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:99999', '1.2.3.4;x'])
      expect(() => run(['--ips', '10.0.0.1', '--origin-dns', bad]), bad).toThrow(UsageError);
  });

  it("takes the aggregates' switches and partial interval, from flags or the environment", () => {
    const base = ['--ips', '10.0.0.1'];
    const defaults = run(base);
    expect([defaults.eventAggregates, defaults.refusalTallies, defaults.aggregatePartialSeconds]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      run([...base, '--event-aggregates', 'off', '--refusal-tallies', 'on', '--aggregate-partial-s', '0']),
    ).toMatchObject({ eventAggregates: false, refusalTallies: true, aggregatePartialSeconds: 0 });
    expect(
      run(base, {
        RAMPART_EDGE_EVENT_AGGREGATES: 'on',
        RAMPART_EDGE_REFUSAL_TALLIES: 'off',
        RAMPART_EDGE_AGGREGATE_PARTIAL_S: '30',
      }),
    ).toMatchObject({ eventAggregates: true, refusalTallies: false, aggregatePartialSeconds: 30 });
    for (const bad of [
      ['--event-aggregates', 'yes'],
      ['--refusal-tallies', 'true'],
      ['--aggregate-partial-s', '61'],
      ['--aggregate-partial-s', '-1'],
      ['--aggregate-partial-s', '1.5'],
    ]) {
      expect(() => run([...base, ...bad]), bad.join(' ')).toThrow(UsageError);
    }
  });

  it('reports a host name the contract accepts', () => {
    expect(reportedHostname('edge_01.example.com')).toBe('edge-01.example.com');
    expect(reportedHostname('-weird-')).toBe('weird');
    expect(reportedHostname('___')).toBe('rampart-edge');
  });
});

describe('backoff', () => {
  it('grows from the minimum to the cap with jitter and never reaches zero', () => {
    const low = new Backoff(500, 10_000, () => 0);
    const high = new Backoff(500, 10_000, () => 1);
    expect(Array.from({ length: 7 }, () => low.next())).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(Array.from({ length: 7 }, () => high.next())).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    high.reset();
    expect(high.next()).toBe(500);
  });
});
