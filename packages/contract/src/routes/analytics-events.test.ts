import { describe, expect, it } from 'vitest';
import {
  type EdgeEvent,
  EVENT_BATCH_MAX,
  EVENT_LIMITS,
  edgeEventBatchSchema,
  isEdgeEventBatch,
} from './analytics-events.js';

/** isEdgeEventBatch is the node API's shortcut for edgeEventBatchSchema: they must agree on every value. */

const valid: EdgeEvent = {
  id: 'n1-4242-65a1b2c3-17',
  time: 1_732_435_200_123,
  domainId: 12,
  ip: '2001:db8::7',
  method: 'GET',
  scheme: 'https',
  httpVersion: '2',
  host: 'www.example.com',
  path: '/a/b.css?x=1',
  status: 200,
  bytesIn: 512,
  bytesOut: 2 ** 40,
  requestMs: 3,
  upstreamMs: -1,
  upstreamStatus: 0,
  cacheStatus: 'HIT',
  userAgent: 'Mozilla/5.0 "q" \\ ✓',
  referer: '',
  fwKind: 'waf',
  fwRule: 7,
  fwAction: 'deny',
  wafPart: 'query',
  wafExcerpt: "id=1' or '1'='1",
  wafName: 'id',
};
/** Fields an agent from before the WAF does not send (they default to ""). */
const OPTIONAL = new Set(['wafPart', 'wafExcerpt', 'wafName']);

const batch = (events: unknown[], extra: Record<string, unknown> = {}) => ({
  batchId: 'a1b2c3-42',
  dropped: 0,
  events,
  ...extra,
});

/** Values of every kind, and edges of the ranges and lengths the schema draws. */
const ODD: unknown[] = [
  undefined,
  null,
  true,
  0,
  -1,
  -2,
  1.5,
  999,
  1000,
  2 ** 31,
  2 ** 53,
  2 ** 60,
  4_102_444_800_000,
  4_102_444_800_001,
  Number.NaN,
  '',
  'x',
  '0',
  'GET',
  'get',
  'G-T',
  'https',
  'HTTP',
  '1.1',
  '1.2',
  'HIT',
  'hit',
  'waf',
  'allow',
  'nope',
  '192.0.2.1',
  '300.1.1.1',
  '::1',
  'a b',
  'id.with_ok-chars',
  'A'.repeat(17),
  'a'.repeat(EVENT_LIMITS.requestId),
  'a'.repeat(EVENT_LIMITS.requestId + 1),
  'h'.repeat(EVENT_LIMITS.host + 1),
  'p'.repeat(EVENT_LIMITS.path),
  'p'.repeat(EVENT_LIMITS.path + 1),
  'u'.repeat(EVENT_LIMITS.userAgent + 1),
  'r'.repeat(EVENT_LIMITS.referer + 1),
  'query',
  'file',
  'w'.repeat(EVENT_LIMITS.wafExcerpt),
  'w'.repeat(EVENT_LIMITS.wafExcerpt + 1),
  '1'.repeat(46),
  [],
  {},
];

function agree(value: unknown): boolean {
  const fast = isEdgeEventBatch(value);
  const schema = edgeEventBatchSchema.safeParse(value).success;
  if (fast !== schema)
    throw new Error(`disagree (fast ${fast}, schema ${schema}) on ${JSON.stringify(value)?.slice(0, 300)}`);
  return schema;
}

describe('isEdgeEventBatch', () => {
  it('passes what the schema passes: valid batches', () => {
    expect(agree(batch([valid]))).toBe(true);
    expect(agree(batch([]))).toBe(true);
    expect(agree(batch(Array.from({ length: EVENT_BATCH_MAX }, () => valid)))).toBe(true);
    expect(
      agree(batch([{ ...valid, ip: '192.0.2.1', httpVersion: '', cacheStatus: '', fwKind: '', fwAction: '' }])),
    ).toBe(true);
  });

  it('refuses what the schema refuses: every event field set to every odd value, missing, or extra', () => {
    let refused = 0;
    let accepted = 0;
    for (const field of Object.keys(valid)) {
      for (const odd of ODD) {
        if (agree(batch([valid, { ...valid, [field]: odd }]))) accepted++;
        else refused++;
      }
      const { [field as keyof EdgeEvent]: _, ...without } = valid;
      expect(agree(batch([without]))).toBe(OPTIONAL.has(field));
    }
    expect(agree(batch([{ ...valid, extra: 1 }]))).toBe(false);
    // An agent from before the WAF: neither field, and no other key in their place.
    const { wafPart: _p, wafExcerpt: _e, wafName: _n, ...old } = valid;
    expect(agree(batch([old]))).toBe(true);
    expect(agree(batch([{ ...old, extra: '' }]))).toBe(false);
    expect(agree(batch([{ ...old, wafPart: undefined }]))).toBe(true);
    // Most odd values are refused somewhere, and some pass where they fit: both sides were exercised.
    expect(refused).toBeGreaterThan(500);
    expect(accepted).toBeGreaterThan(50);
  });

  it('refuses what the schema refuses at the batch level', () => {
    for (const odd of ODD) {
      agree(batch([valid], { batchId: odd }));
      agree(batch([valid], { dropped: odd }));
      agree(batch([valid], { events: odd }));
      agree(batch([valid], { statistics: odd }));
      agree(batch([odd]));
      agree(odd);
    }
    expect(agree(batch([valid], { extra: true }))).toBe(false);
    // An agent that ships its statistics as aggregates marks its events as for the logs only.
    expect(agree(batch([valid], { statistics: false }))).toBe(true);
    expect(agree(batch([valid], { statistics: true }))).toBe(false);
    expect(agree(batch([valid], { statistics: false, extra: 1 }))).toBe(false);
    expect(agree({ batchId: 'a1b2c3-42', events: [] })).toBe(false);
    expect(agree(batch(Array.from({ length: EVENT_BATCH_MAX + 1 }, () => valid)))).toBe(false);
    expect(agree(batch([valid], { batchId: 'A1-1' }))).toBe(false);
    expect(agree(JSON.parse('{"batchId":"a-1","dropped":0,"events":[],"__proto__":{"x":1}}'))).toBe(false);
  });
});
