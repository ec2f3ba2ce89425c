import { describe, expect, it } from 'vitest';
import { parseEventLine } from '../agent/events/event-line.js';
import { accessLogFormat } from './public-server.js';

/** A value for each variable of the format that the event parser reads into something other than its default. */
const VALUES: Record<string, string> = {
  $msec: '1740823200.123',
  $rampart_request_id: 'n7-4242-67c2d9a0-15',
  $remote_addr: '203.0.113.9',
  $host: 'www.shop.example',
  $request_method: 'POST',
  $request_uri: '/cart?item=1',
  $server_protocol: 'HTTP/1.1',
  $status: '403',
  $request_length: '312',
  $bytes_sent: '5120',
  $request_time: '0.042',
  $upstream_status: '200',
  $upstream_response_time: '0.040',
  $upstream_cache_status: 'MISS',
  $rampart_domain_id: '77',
  $rampart_fw_kind: 'blacklist',
  $rampart_fw_rule: '12',
  $rampart_fw_action: 'deny',
  $rampart_waf_part: 'query',
  $rampart_waf_excerpt: 'union select',
  $rampart_waf_name: 'item',
  $http_user_agent: 'curl/8.5.0',
  $http_referer: 'https://www.shop.example/',
};

/** The line nginx would write with VALUES, as an object (the format is a JSON object of strings). */
function lineOf(format: string): Record<string, string> {
  const fields = JSON.parse(`{${format}}`) as Record<string, string>;
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      if (!value.startsWith('$')) return [key, value];
      const sample = VALUES[value];
      if (sample === undefined) throw new Error(`no sample value for ${value}`);
      return [key, sample];
    }),
  );
}

const fallback = () => 'fallback-id';

// The access log line is written for every request the edge serves (bytes formatted, escaped and
// written per request): it carries what the request event is made of and nothing more.
describe('the access log line', () => {
  for (const scheme of ['http', 'https'] as const) {
    it(`(${scheme}) carries only fields the request event is read from`, () => {
      const line = lineOf(accessLogFormat(scheme));
      const whole = parseEventLine(JSON.stringify(line), fallback);
      expect(whole).toMatchObject({ ok: true, event: { scheme, domainId: 77, fwKind: 'blacklist' } });
      for (const key of Object.keys(line)) {
        const without = { ...line };
        delete without[key];
        expect(parseEventLine(JSON.stringify(without), fallback), key).not.toEqual(whole);
      }
    });
  }
});
