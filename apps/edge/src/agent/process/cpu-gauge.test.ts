import { describe, expect, it } from 'vitest';
import { CpuGauge, type CpuSample, readCpuSample } from './cpu-gauge.js';

/** A gauge over samples the test hands out, on the test's clock. */
function gauge(samples: CpuSample[], threshold = 0.9) {
  let clock = 0;
  let reads = 0;
  const g = new CpuGauge({
    threshold,
    windowMs: 500,
    now: () => clock,
    read: () => samples[reads++] ?? null,
  });
  return {
    busyAfter(ms: number) {
      clock += ms;
      return g.othersBusy();
    },
    get reads() {
      return reads;
    },
  };
}

describe("the node's CPU as the events process sees it", () => {
  it('is busy when the rest of the node used the threshold of all CPUs over the window', () => {
    // 2 CPUs, 0.5 s: 100 ticks in all. Others 95 of them, then 60.
    const g = gauge([
      { total: 0, busy: 0, own: 0 },
      { total: 100, busy: 95, own: 0 },
      { total: 200, busy: 155, own: 0 },
    ]);
    expect(g.busyAfter(0)).toBe(false); // one sample: nothing to compare yet
    expect(g.busyAfter(500)).toBe(true);
    expect(g.busyAfter(500)).toBe(false);
  });

  it("does not count the process's own CPU as the node being busy", () => {
    const g = gauge([
      { total: 0, busy: 0, own: 0 },
      { total: 100, busy: 98, own: 40 },
    ]);
    g.busyAfter(0);
    expect(g.busyAfter(500)).toBe(false);
  });

  it('keeps its answer within the window, without reading /proc again', () => {
    const g = gauge([
      { total: 0, busy: 0, own: 0 },
      { total: 100, busy: 99, own: 0 },
      { total: 110, busy: 110, own: 0 },
    ]);
    g.busyAfter(0);
    expect(g.busyAfter(500)).toBe(true);
    expect(g.busyAfter(100)).toBe(true);
    expect(g.reads).toBe(2);
  });

  it('is never busy where /proc cannot be read', () => {
    const g = gauge([]);
    expect(g.busyAfter(0)).toBe(false);
    expect(g.busyAfter(1000)).toBe(false);
  });

  it("reads this machine's ticks and this process's own", () => {
    const before = readCpuSample();
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 60_000) {
      // Burns 60 ms of CPU so that the process's own ticks grow (however loaded the machine).
    }
    const after = readCpuSample();
    if (before === null || after === null) throw new Error('no /proc');
    // ~6 ticks of 10 ms burnt; the machine's count is sampled per tick, the process's is exact, so
    // the two agree only to a tick or two.
    expect(after.own - before.own).toBeGreaterThanOrEqual(4);
    expect(after.busy - before.busy).toBeGreaterThanOrEqual(after.own - before.own - 2);
    expect(after.total - before.total).toBeGreaterThanOrEqual(after.busy - before.busy);
  });
});
