import { describe, expect, it } from 'vitest';
import { formatValue, MetricsRegistry, sampleValue } from './prometheus.js';

describe('metrics registry (Prometheus text format 0.0.4)', () => {
  it('writes HELP, TYPE and one line per label set, labels in declared order', async () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter('app_requests_total', 'Requests', ['route', 'status']);
    requests.inc({ status: '2xx', route: 'a.b' });
    requests.inc({ route: 'a.b', status: '2xx' }, 2);
    requests.inc({ route: 'c', status: '4xx' });
    const text = await registry.encode();
    expect(text).toContain(
      '# HELP app_requests_total Requests\n# TYPE app_requests_total counter\n' +
        'app_requests_total{route="a.b",status="2xx"} 3\napp_requests_total{route="c",status="4xx"} 1\n',
    );
    expect(text.endsWith('\n')).toBe(true);
  });

  it('escapes label values and help text', async () => {
    const registry = new MetricsRegistry();
    registry.gauge('g', 'line one\nback\\slash', ['v']).set({ v: 'a"b\\c\nd' }, 1.5);
    const text = await registry.encode();
    expect(text).toContain('# HELP g line one\\nback\\\\slash\n');
    expect(text).toContain('g{v="a\\"b\\\\c\\nd"} 1.5\n');
  });

  it('histograms count cumulatively per bucket, with +Inf, sum and count', async () => {
    const registry = new MetricsRegistry();
    const h = registry.histogram('lat_seconds', 'Latency', ['route'], [0.1, 0.5, 1]);
    for (const v of [0.05, 0.3, 0.3, 2]) h.observe({ route: 'r' }, v);
    const text = await registry.encode();
    expect(text).toContain(
      '# TYPE lat_seconds histogram\n' +
        'lat_seconds_bucket{route="r",le="0.1"} 1\n' +
        'lat_seconds_bucket{route="r",le="0.5"} 3\n' +
        'lat_seconds_bucket{route="r",le="1"} 3\n' +
        'lat_seconds_bucket{route="r",le="+Inf"} 4\n' +
        'lat_seconds_sum{route="r"} 2.65\n' +
        'lat_seconds_count{route="r"} 4\n',
    );
  });

  it('runs collectors before each scrape; a failing one is counted and the scrape still answers', async () => {
    const registry = new MetricsRegistry();
    const depth = registry.gauge('queue_depth', 'Depth');
    let n = 0;
    registry.collect(() => depth.set({}, ++n));
    registry.collect(() => {
      throw new Error('store down');
    });
    expect(await registry.encode()).toContain('\nqueue_depth 1\n');
    const second = await registry.encode();
    expect(second).toContain('\nqueue_depth 2\n');
    expect(second).toContain('\nrampart_metrics_collect_errors_total 2\n');
  });

  it('refuses bad names, reserved labels, unknown labels, duplicates and counters going down', () => {
    const registry = new MetricsRegistry();
    expect(() => registry.counter('1bad', 'x')).toThrow();
    expect(() => registry.histogram('h', 'x', ['le'], [1])).toThrow();
    const c = registry.counter('c_total', 'x', ['a']);
    expect(() => c.inc({ b: '1' })).toThrow();
    expect(() => c.inc({ a: '1' }, -1)).toThrow();
    expect(() => registry.gauge('c_total', 'again')).toThrow();
  });

  it('spells special values as the format does', () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 3].map(formatValue)).toEqual([
      'NaN',
      '+Inf',
      '-Inf',
      '3',
    ]);
  });

  it('reads a sample back from a scrape, by its exact series', async () => {
    const registry = new MetricsRegistry();
    registry.counter('c_total', 'x', ['a']).inc({ a: '1' }, 4);
    const text = await registry.encode();
    expect(sampleValue(text, 'c_total{a="1"}')).toBe(4);
    expect(sampleValue(text, 'c_total{a="2"}')).toBeUndefined();
    expect(sampleValue(text, 'c_total')).toBeUndefined();
  });
});
