import type { EdgeEvent } from '../routes/analytics-events.js';

let serial = 0;

/**
 * One request event as a node's access log has it, for tests: a plain 200 GET of `a.example` that
 * reached its origin, with a fresh id each call; `over` sets what a test needs (`time` always).
 */
export function edgeEvent(over: Partial<EdgeEvent> & Pick<EdgeEvent, 'time'>): EdgeEvent {
  serial += 1;
  return {
    id: `e${over.time}-${serial}`,
    domainId: 7,
    ip: '192.0.2.1',
    method: 'GET',
    scheme: 'https',
    httpVersion: '2',
    host: 'a.example',
    path: '/',
    status: 200,
    bytesIn: 100,
    bytesOut: 1000,
    requestMs: 5,
    upstreamMs: 3,
    upstreamStatus: 200,
    cacheStatus: '',
    userAgent: 'ua',
    referer: '',
    fwKind: '',
    fwRule: 0,
    fwAction: '',
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
    ...over,
  };
}
