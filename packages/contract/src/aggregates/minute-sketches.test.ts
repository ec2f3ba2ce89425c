import { describe, expect, it } from 'vitest';
import { edgeEvent } from '../testing/edge-events.js';
import { MinuteAggregator } from './minute-aggregator.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0);

describe("a domain's shipped heavy hitters", () => {
  it('list the values its traffic had, not k slots: exact under the capacity, at most k over it', () => {
    const a = new MinuteAggregator({ topK: 8 });
    const paths = ['/a', '/b', '/c', '/a'];
    for (const [i, path] of paths.entries()) a.add(edgeEvent({ time: T0 + i, domainId: 1, path }));
    for (let i = 0; i < 100; i++) a.add(edgeEvent({ time: T0 + i, domainId: 2, path: `/p${i % 20}` }));
    a.closeAll();
    const [small, busy] = a.take().minutes;
    expect(small?.top?.url.entries.map((e) => [e[0], e[1], e[2]])).toEqual([
      ['/a', 2, 0],
      ['/b', 1, 0],
      ['/c', 1, 0],
    ]);
    expect(small?.top?.url.floor).toBe(0);
    // Twenty values over a capacity of 8: at most 8 listed, the floor within n / (k + 1).
    const url = busy?.top?.url;
    expect(url?.entries.length).toBeLessThanOrEqual(8);
    expect(url?.floor).toBeGreaterThan(0);
    expect(url?.floor).toBeLessThanOrEqual(100 / 9);
  });
});
