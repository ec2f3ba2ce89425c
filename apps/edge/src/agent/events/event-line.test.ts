import { EVENT_LIMITS, edgeEventSchema } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { cut, parseEventLine, plainlyValid } from './event-line.js';

/** A line as nginx writes it (render.ts accessLogFormat), every value a string. */
function line(fields: Record<string, string> = {}): string {
  return JSON.stringify({
    msec: '1740823200.123',
    request_id: 'n7-4242-67c2d9a0-15',
    remote_addr: '203.0.113.9',
    scheme: 'https',
    host: 'www.shop.example',
    method: 'GET',
    uri: '/cart?item=1',
    protocol: 'HTTP/2.0',
    status: '200',
    request_length: '312',
    bytes_sent: '5120',
    request_time: '0.042',
    upstream_status: '200',
    upstream_response_time: '0.040',
    cache_status: 'MISS',
    domain_id: '77',
    fw_kind: '',
    fw_rule: '',
    fw_action: '',
    waf_part: '',
    waf_excerpt: '',
    waf_name: '',
    user_agent: 'curl/8.5.0',
    referer: 'https://www.shop.example/',
    ...fields,
  });
}

const noFallback = () => {
  throw new Error('no fallback id expected');
};
const parsed = (fields: Record<string, string> = {}, fallback: () => string = noFallback) => {
  const result = parseEventLine(line(fields), fallback);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.event;
};

describe('an access-log line as a request event', () => {
  it('converts every field: ms times, ints, protocol to version, the cache status', () => {
    expect(parsed()).toEqual({
      id: 'n7-4242-67c2d9a0-15',
      time: 1_740_823_200_123,
      domainId: 77,
      ip: '203.0.113.9',
      method: 'GET',
      scheme: 'https',
      httpVersion: '2',
      host: 'www.shop.example',
      path: '/cart?item=1',
      status: 200,
      bytesIn: 312,
      bytesOut: 5120,
      requestMs: 42,
      upstreamMs: 40,
      upstreamStatus: 200,
      cacheStatus: 'MISS',
      userAgent: 'curl/8.5.0',
      referer: 'https://www.shop.example/',
      fwKind: '',
      fwRule: 0,
      fwAction: '',
      wafPart: '',
      wafExcerpt: '',
      wafName: '',
    });
  });

  it('maps each protocol nginx reports, and none for a request without a request line', () => {
    const version = (protocol: string) => parsed({ protocol }).httpVersion;
    expect(['HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/3.0', '', 'HTTP/0.9'].map(version)).toEqual([
      '1.0',
      '1.1',
      '2',
      '3',
      '',
      '',
    ]);
  });

  it('reads "-" and "" as no value: no origin asked, no cache, no domain, no rule', () => {
    const event = parsed({
      upstream_status: '-',
      upstream_response_time: '-',
      cache_status: '',
      domain_id: '',
      user_agent: '-',
      referer: '',
      fw_rule: '-',
    });
    expect(event).toMatchObject({
      upstreamMs: -1,
      upstreamStatus: 0,
      cacheStatus: '',
      domainId: 0,
      userAgent: '',
      referer: '',
      fwRule: 0,
    });
    expect(parsed({ upstream_status: '', upstream_response_time: '' })).toMatchObject({
      upstreamMs: -1,
      upstreamStatus: 0,
    });
  });

  it("keeps the last origin attempt of nginx's upstream lists (retries and internal redirects)", () => {
    expect(parsed({ upstream_status: '502, 504, 200', upstream_response_time: '0.001, 1.500, 0.020' })).toMatchObject({
      upstreamStatus: 200,
      upstreamMs: 20,
    });
    expect(parsed({ upstream_status: '502 : 404', upstream_response_time: '0.010 : 0.007' })).toMatchObject({
      upstreamStatus: 404,
      upstreamMs: 7,
    });
    expect(parsed({ upstream_status: '200, -', upstream_response_time: '0.010, -' })).toMatchObject({
      upstreamStatus: 0,
      upstreamMs: -1,
    });
  });

  it("keeps the edge's own statuses: 444 for a closed connection, 499, and the 9xx codes", () => {
    for (const status of ['444', '499', '901', '999']) expect(parsed({ status }).status).toBe(Number(status));
    expect(parseEventLine(line({ status: '1000' }), noFallback)).toMatchObject({ ok: false });
  });

  it('carries the firewall decision of a blacklisted request', () => {
    expect(parsed({ fw_kind: 'blacklist', fw_rule: '11', fw_action: 'deny', status: '403' })).toMatchObject({
      fwKind: 'blacklist',
      fwRule: 11,
      fwAction: 'deny',
      status: 403,
    });
  });

  it('carries the decision of a token auth that refused the request', () => {
    expect(parsed({ fw_kind: 'tokenAuth', fw_rule: '21', fw_action: 'drop', status: '444' })).toMatchObject({
      fwKind: 'tokenAuth',
      fwRule: 21,
      fwAction: 'drop',
      status: 444,
    });
  });

  it('carries a WAF decision: its rule, the part of the request and the excerpt, cut at its limit', () => {
    expect(
      parsed({
        fw_kind: 'waf',
        fw_rule: '100012',
        fw_action: 'detect',
        waf_part: 'cookie',
        waf_excerpt: "1' or 1=1--",
        waf_name: 'q',
      }),
    ).toMatchObject({
      fwKind: 'waf',
      fwRule: 100012,
      fwAction: 'detect',
      wafPart: 'cookie',
      wafExcerpt: "1' or 1=1--",
      wafName: 'q',
    });
    expect(parsed({ waf_excerpt: 'x'.repeat(300) }).wafExcerpt).toBe('x'.repeat(128));
    expect(parseEventLine(line({ waf_part: 'elsewhere' }), noFallback)).toMatchObject({ ok: false });
  });

  it("cuts strings at the contract's limits, never through a surrogate pair", () => {
    const event = parsed({
      host: 'h'.repeat(300),
      uri: `/${'p'.repeat(3000)}`,
      user_agent: 'u'.repeat(600),
      referer: 'r'.repeat(2000),
    });
    expect(event.host).toHaveLength(EVENT_LIMITS.host);
    expect(event.path).toHaveLength(EVENT_LIMITS.path);
    expect(event.userAgent).toHaveLength(EVENT_LIMITS.userAgent);
    expect(event.referer).toHaveLength(EVENT_LIMITS.referer);
    expect(cut(`ab${'😀'}`, 3)).toBe('ab');
    expect(cut(`ab${'😀'}`, 4)).toBe('ab😀');
  });

  it('names a request nginx refused before routing (no request id) with the fallback', () => {
    const event = parsed(
      { request_id: '', method: '', protocol: '', status: '400', host: '', domain_id: '' },
      () => 'spool1.3.0',
    );
    expect(event).toMatchObject({ id: 'spool1.3.0', method: '', httpVersion: '', status: 400, domainId: 0 });
  });

  it('leaves out a method with characters the event does not take', () => {
    expect(parsed({ method: 'M-SEARCH' }).method).toBe('');
  });

  it('refuses, without throwing, lines that are no event', () => {
    const refused = (text: string) => parseEventLine(text, () => 'x.1.0');
    expect(refused('not json')).toEqual({ ok: false, reason: 'not JSON' });
    expect(refused('[1,2]')).toEqual({ ok: false, reason: 'not an object' });
    expect(refused('{"time":"2025')).toMatchObject({ ok: false });
    // A line of the format before the event fields (no $msec): no time.
    const old = JSON.parse(line()) as Record<string, string>;
    delete old.msec;
    expect(refused(JSON.stringify(old))).toMatchObject({ ok: false, reason: expect.stringContaining('time') });
    expect(refused(line({ remote_addr: 'unix:' }))).toMatchObject({ ok: false, reason: expect.stringContaining('ip') });
    expect(refused(line({ fw_kind: 'martian' }))).toMatchObject({ ok: false });
    expect(refused(line({ scheme: 'gopher' }))).toMatchObject({ ok: false });
  });
});

describe('the fast check', () => {
  it('agrees with the schema on every field it checks, for good and bad values', () => {
    const good = parsed();
    const variants: Record<string, unknown[]> = {
      id: ['', 'a', 'x'.repeat(96), 'x'.repeat(97), 'bad id', 'n-1-2.3_4', 'ü'],
      time: [0, -1, 4_102_444_800_000, 4_102_444_800_001],
      status: [0, 444, 999, 1000, -1],
      scheme: ['http', 'https', 'ftp', ''],
      fwKind: ['', 'blacklist', 'waf', 'antiCC', 'nope'],
      fwAction: ['', 'deny', 'pass', 'dropBlacklist', 'block', 'detect'],
      wafPart: ['', 'query', 'file', 'any', 'nope'],
      ip: [
        '203.0.113.9',
        '2001:db8::1',
        '::ffff:1.2.3.4',
        '',
        '1.2.3',
        '999.1.1.1',
        'localhost',
        `${'1:'.repeat(30)}1`,
      ],
    };
    let compared = 0;
    for (const [field, values] of Object.entries(variants)) {
      for (const value of values) {
        const event = { ...good, [field]: value } as typeof good;
        expect(plainlyValid(event), `${field}=${String(value)}`).toBe(edgeEventSchema.safeParse(event).success);
        compared++;
      }
    }
    expect(compared).toBe(44);
  });
});
