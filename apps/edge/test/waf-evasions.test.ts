import { WAF_BODY_LIMIT_BYTES } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, WAF_PLACES, type WafReply, wafSender } from './helpers/waf-send.js';

// Three evasions of the WAF on its defaults (block, medium, fail open), through a real nginx, each
// closed in every part a payload rides in, with benign requests of the same shapes passing:
// - SQL comments standing for spaces ("1/**/UNION/**/SELECT", "--" and "#" to the end of a line,
//   MySQL's versioned comments), read the way the database reads them;
// - an attack padded past the inspected body limit (the end of a long body is inspected too);
// - bodies in UTF-16 or UTF-32 (with or without a byte order mark, or a part declaring its charset),
//   decoded before matching; an undecodable declared charset refused when the module fails closed.
// The payloads are written for these tests from the public techniques (no corpus line).

let edge: Edge;
let origin: Origin;
const host = (name: string) => `${name}.evasion.example`;
const open = wafSender(() => edge, host('default'));
const strictLow = wafSender(() => edge, host('strict'));

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document(
      'waf-evasions-1',
      [
        domain(1, host('default'), [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) }),
        domain(2, host('strict'), [upstream(origin.port)], { modules: moduleRefs({ waf: 2 }) }),
      ],
      [],
      [],
      { modules: [wafModule(1), wafModule(2, { failMode: 'closed', sensitivity: 'low' })] },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const verdicts = async (list: [string, Promise<WafReply>][]) => {
  const out: Record<string, string> = {};
  for (const [k, p] of list) {
    const r = await p;
    out[k] = blocked(r) ? 'blocked' : passed(r) ? 'passed' : `status ${r.status}`;
  }
  return out;
};

describe('SQL comments read as the database reads them', () => {
  const ATTACKS = [
    '1/**/UNION/**/SELECT/**/pass/**/FROM/**/users',
    "1'/**/OR/**/'1'='1",
    '-1/**/union/**/select/**/1,2,3',
    "x'/*a*/or/*b*/1=1/*c*/--",
    '1 union/*!50000all*//*!50000select*/ 1,2',
    "1'--\nOR 1=1--",
    "admin'#\nor 'a'='a",
    '9/*x*/AND/*y*/SLEEP(5)',
  ];
  const BENIGN = [
    'match src/** and docs/**',
    'a price -- about 5 euros',
    '#1 choice or 2nd',
    '/* header */ body',
    "O'Reilly -- 2nd ed",
  ];

  for (const place of WAF_PLACES) {
    it(`in the ${place}: every comment form blocked; the same characters in benign text pass`, async () => {
      // (a header value cannot hold a line break)
      const attacks = place === 'header' ? ATTACKS.filter((a) => !a.includes('\n')) : ATTACKS;
      const got = await verdicts(attacks.map((a) => [a, open.sendIn(place, a)]));
      expect(got).toEqual(Object.fromEntries(attacks.map((a) => [a, 'blocked'])));
      if (place === 'path') return; // (a path of "*" and "#" is its own matter: sensitive-file rules)
      const ok = await verdicts(BENIGN.map((b) => [b, open.sendIn(place, b)]));
      expect(ok).toEqual(Object.fromEntries(BENIGN.map((b) => [b, 'passed'])));
    });
  }
});

describe('a body longer than the inspected limit', () => {
  const pad = WAF_BODY_LIMIT_BYTES + 2048;
  const attack = "1' OR '1'='1";
  const form = (tail: string, size = pad) =>
    `${`note=${'ordinary+words+of+a+long+form+'.repeat(64)}&`.repeat(Math.ceil(size / 2000))}last=${encodeURIComponent(tail)}`;
  const post = (body: string, contentType: string) =>
    open.send({ path: '/bulk', method: 'POST', headers: { 'content-type': contentType }, body });

  it('an attack after the first 128 KB of a form, JSON, multipart or text body is blocked (fail open)', async () => {
    const b = 'rampartLongBody3';
    const jsonBody = JSON.stringify({
      items: Array.from({ length: 4600 }, (_, i) => ({ id: i, text: 'some text' })),
      q: attack,
    });
    const multipart = `--${b}\r\nContent-Disposition: form-data; name="doc"\r\n\r\n${'plain text words '.repeat(Math.ceil(pad / 17))}\r\n--${b}\r\nContent-Disposition: form-data; name="q"\r\n\r\n${attack}\r\n--${b}--\r\n`;
    expect(jsonBody.length).toBeGreaterThan(WAF_BODY_LIMIT_BYTES);
    const got = await verdicts([
      ['form', post(form(attack), 'application/x-www-form-urlencoded')],
      ['form 300 KB (spilled to a file)', post(form(attack, 300 * 1024), 'application/x-www-form-urlencoded')],
      ['json', post(jsonBody, 'application/json')],
      ['multipart', post(multipart, `multipart/form-data; boundary=${b}`)],
      ['text', post(`${'lorem ipsum dolor '.repeat(Math.ceil(pad / 18))}<script>alert(1)</script>`, 'text/plain')],
    ]);
    expect(got).toEqual({
      form: 'blocked',
      'form 300 KB (spilled to a file)': 'blocked',
      json: 'blocked',
      multipart: 'blocked',
      text: 'blocked',
    });
  });

  it('the same long bodies without the attack pass', async () => {
    const got = await verdicts([
      ['form', post(form('an ordinary last field'), 'application/x-www-form-urlencoded')],
      ['form 300 KB', post(form('the end', 300 * 1024), 'application/x-www-form-urlencoded')],
      ['text', post('lorem ipsum dolor '.repeat(Math.ceil(pad / 18)), 'text/plain')],
    ]);
    expect(got).toEqual({ form: 'passed', 'form 300 KB': 'passed', text: 'passed' });
  });
});

describe('bodies in other charsets', () => {
  const BOUNDARY = 'rampartWide9';
  const multipart = (value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="comment"\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`;
  const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
  const utf32 = (s: string, le: boolean) => {
    const out = Buffer.alloc(s.length * 4);
    for (let i = 0; i < s.length; i++) {
      if (le) out.writeUInt32LE(s.charCodeAt(i), i * 4);
      else out.writeUInt32BE(s.charCodeAt(i), i * 4);
    }
    return out;
  };
  const ENCODINGS: Record<string, (s: string) => Buffer> = {
    'UTF-16LE with BOM': (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]),
    'UTF-16LE without BOM': (s) => Buffer.from(s, 'utf16le'),
    'UTF-16BE with BOM': (s) => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)]),
    'UTF-16BE without BOM': (s) => utf16be(s),
    'UTF-32LE with BOM': (s) => Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(s, true)]),
    'UTF-32BE without BOM': (s) => utf32(s, false),
  };
  const SHAPES: Record<string, { type: string; body: (v: string) => string }> = {
    multipart: { type: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart },
    json: { type: 'application/json', body: (v) => JSON.stringify({ comment: v }) },
    form: { type: 'application/x-www-form-urlencoded', body: (v) => `comment=${encodeURIComponent(v)}` },
  };
  const post = (type: string, body: Buffer) =>
    open.send({ path: '/upload', method: 'POST', headers: { 'content-type': type }, body });

  for (const [shape, { type, body }] of Object.entries(SHAPES)) {
    it(`a ${shape} body in UTF-16/32: an attack is blocked, a benign twin passes`, async () => {
      const attacks = await verdicts(
        Object.entries(ENCODINGS).flatMap(([enc, encode]) => [
          [`${enc} sqli`, post(type, encode(body("x' OR '1'='1")))],
          [`${enc} xss`, post(type, encode(body('<img src=x onerror=alert(1)>')))],
        ]),
      );
      expect(Object.values(attacks).every((v) => v === 'blocked')).toEqual(true);
      const benign = await verdicts(
        Object.entries(ENCODINGS).map(([enc, encode]) => [enc, post(type, encode(body("O'Reilly and sons, h1<h2")))]),
      );
      expect(benign).toEqual(Object.fromEntries(Object.keys(ENCODINGS).map((e) => [e, 'passed'])));
    });
  }

  it('a multipart part declaring its own UTF-16 charset is decoded; a binary upload still passes', async () => {
    const part = (content: Buffer, head: string) =>
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"${head}\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]);
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1,
    ]);
    const got = await verdicts([
      [
        'field',
        post(type, part(Buffer.from("1' OR '1'='1", 'utf16le'), '\r\nContent-Type: text/plain; charset=utf-16le')),
      ],
      [
        'file',
        post(
          type,
          part(
            Buffer.from('<script>alert(document.cookie)</script>', 'utf16le'),
            '; filename="a.txt"\r\nContent-Type: text/plain; charset=UTF-16LE',
          ),
        ),
      ],
      ['png', post(type, part(Buffer.concat([png, png, png]), '; filename="a.png"\r\nContent-Type: image/png'))],
    ]);
    expect(got).toEqual({ field: 'blocked', file: 'blocked', png: 'passed' });
  });

  it('a charset that cannot be decoded is refused when the module fails closed; a known one passes', async () => {
    const send = (charset: string) =>
      strictLow.send({
        path: '/upload',
        method: 'POST',
        headers: { 'content-type': `text/plain; charset=${charset}` },
        body: 'hello there',
      });
    const got = await verdicts([
      ['utf-7', send('utf-7')],
      ['ibm037', send('ibm037')],
      ['utf-8', send('utf-8')],
    ]);
    expect(got).toEqual({ 'utf-7': 'blocked', ibm037: 'blocked', 'utf-8': 'passed' });
  });
});
