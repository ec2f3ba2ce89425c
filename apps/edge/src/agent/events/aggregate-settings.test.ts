import { describe, expect, it } from 'vitest';
import { aggregateSettings } from './aggregate-settings.js';

const admin = { socketPath: '/state/admin.sock', secretFile: '/state/admin.secret' };

describe("the event worker's aggregate settings", () => {
  it('turns aggregates and tallies on unless off, and passes the partial interval in milliseconds', () => {
    expect(aggregateSettings({}, admin)).toEqual({ aggregates: true, refusals: admin });
    expect(aggregateSettings({ aggregatePartialSeconds: 30 }, admin)).toEqual({
      aggregates: true,
      refusals: admin,
      partialMs: 30_000,
    });
    expect(aggregateSettings({ refusalTallies: false, aggregatePartialSeconds: 0 }, admin)).toEqual({
      aggregates: true,
      partialMs: 0,
    });
    // No aggregates: neither tallies nor partials.
    expect(
      aggregateSettings({ eventAggregates: false, refusalTallies: true, aggregatePartialSeconds: 5 }, admin),
    ).toEqual({});
  });
});
