import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, wafSender } from './helpers/waf-send.js';

// How the WAF cuts what it reads into pieces (cookies at ';', JSON lines at newlines, a binary
// body into its printable runs, the request head's file-name headers): every piece is read,
// wherever it sits (first, last, after empty pieces, at the end without a separator), and the
// benign twins of the same shapes pass. Through a real nginx with a default module.

let edge: Edge;
let origin: Origin;
const HOST = 'splits.waf.example';
const sender = wafSender(() => edge, HOST);
const ATTACK = "1' UNION SELECT password FROM users--";

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document('waf-splits-1', [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })], [], [], {
      modules: [wafModule(1)],
    }),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('WAF: the pieces of a cookie header, a JSON-lines body and a binary body', () => {
  it('an attack in any cookie is blocked, after empty pieces or last without a separator; benign cookies pass', async () => {
    const value = encodeURIComponent(ATTACK);
    const wrong: string[] = [];
    for (const cookie of [
      `v=${value}`,
      `a=1; v=${value}`,
      `a=1;;; v=${value}`,
      `;v=${value};`,
      `a=1; b=2; v=${value};;`,
      `a=1;v=${value}; b=2`,
    ]) {
      const r = await sender.send({ method: 'GET', path: '/', headers: { cookie } });
      if (!blocked(r)) wrong.push(`attack ${cookie}: ${r.status}`);
    }
    for (const cookie of ['a=1', 'a=1;;; b=2;', ';theme=dark; lang=en-US;', 'sid=abc123; cart=3; seen=1']) {
      const r = await sender.send({ method: 'GET', path: '/', headers: { cookie } });
      if (!passed(r)) wrong.push(`benign ${cookie}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('JSON lines: an attack on any line (first, after blank lines, last without a newline) is blocked', async () => {
    const event = JSON.stringify({ type: 'event', at: '2026-01-01T00:00:00Z' });
    const bad = JSON.stringify({ message: '<img src=x onerror=alert(7)>' });
    const headers = { 'content-type': 'text/plain;charset=UTF-8' };
    const wrong: string[] = [];
    for (const body of [`${bad}\n${event}\n`, `${event}\n\n\n${bad}\n`, `${event}\n${event}\n${bad}`]) {
      const r = await sender.send({ method: 'POST', path: '/envelope', headers, body });
      if (!blocked(r)) wrong.push(`attack ${JSON.stringify(body)}: ${r.status}`);
    }
    for (const body of [`${event}\n\n${event}\n`, `${event}\n${event}`]) {
      const r = await sender.send({ method: 'POST', path: '/envelope', headers, body });
      if (!passed(r)) wrong.push(`benign ${JSON.stringify(body)}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a binary body's printable runs are read: an attack between control bytes is blocked, a protobuf beacon passes", async () => {
    const headers = { 'content-type': 'application/x-protobuf' };
    const bin = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
    const wrong: string[] = [];
    for (const [name, body] of [
      ['first', bin(ATTACK, [0x00, 0x12, 0x08], 'page_view')],
      ['middle', bin([0x0a, 0x05], 'short', [0x12, 0x30], ATTACK, [0x1a, 0x00])],
      ['last', bin([0x08, 0x96, 0x01, 0x00], ATTACK)],
      ['after other runs', bin([0x0a, 0x0b], 'page_view_1', [0x12, 0x14], 'https://shop.example/', [0x00], ATTACK)],
      // a control byte past the first 2 KB: the body is read as text, whole
      ['late control byte', bin('x'.repeat(3000), [0x01], ATTACK)],
    ] as const) {
      const r = await sender.send({ method: 'POST', path: '/beacon', headers, body });
      if (!blocked(r)) wrong.push(`attack ${name}: ${r.status}`);
    }
    const beacon = bin([0x0a, 0x0b], 'page_view_1', [0x12, 0x14], 'https://shop.example/', [0x18, 0x96, 0x01, 0x00]);
    const r = await sender.send({ method: 'POST', path: '/beacon', headers, body: beacon });
    if (!passed(r)) wrong.push(`benign beacon: ${r.status}`);
    expect(wrong).toEqual([]);
  });
});
