import type { WafPlace } from '../helpers/waf-send.js';
import { cross, every, type Material, type MaterialCase } from './types.js';

// Path traversal: a climb written in each encoding a server or framework decodes, to files every
// system has, and absolute paths to them; in every part of a request. The benign side: relative
// links, version ranges, dotted numbers and Windows paths of ordinary documents.

const CLIMBS: Record<string, string> = {
  plain: '../',
  backslash: '..\\',
  'url encoded': '%2e%2e%2f',
  'url encoded, upper case': '%2E%2E%2F',
  'dots encoded': '%2e%2e/',
  'slash encoded': '..%2f',
  'backslash encoded': '..%5c',
  'double url encoded': '%252e%252e%252f',
  'overlong utf-8 dots': '%c0%ae%c0%ae/',
  'overlong utf-8 slash': '..%c0%af',
  'overlong utf-8 backslash': '..%c1%9c',
  '%u encoded': '%u002e%u002e%u2215',
  'full-width dots': '%uff0e%uff0e/',
  'one dot leaders': '\u2024\u2024/',
  'two dot leader': '\u2025/',
  'tomcat path parameter': '..;/',
  'path parameter with a name': '..;jsessionid=1/',
  'filter strip bypass': '....//',
  'dot slash interleaved': '.././',
  'mixed separators': '..\\/',
  'html entities': '&#46;&#46;&#47;',
  'overlong utf-8, three bytes': '%e0%80%ae%e0%80%ae/',
  'overlong utf-8 dot, plain slash, mixed': '.%c0%ae/',
  'double url encoded overlong': '%25c0%25ae%25c0%25ae/',
  'double url encoded backslash': '..%255c',
  'mixed: one dot encoded': '.%2e/',
  'mixed: other dot encoded': '%2e./',
  'full-width dots as utf-8': '%ef%bc%8e%ef%bc%8e/',
  'full-width solidus as utf-8': '..%ef%bc%8f',
  'two dot leader as utf-8': '%e2%80%a5/',
  'division slash as utf-8': '..%e2%88%95',
  'null byte before the slash': '..%00/',
  '%u encoded backslash': '..%u005c',
};

const TARGETS = [
  'etc/passwd',
  'etc/shadow',
  'windows/win.ini',
  'boot.ini',
  'proc/self/environ',
  'WEB-INF/web.xml',
  '.env',
  'etc/hosts%00.png',
  'var/log/apache2/access.log',
  'root/.ssh/id_rsa',
  'windows/system32/config/sam',
  'etc/passwd%2500.jpg',
];

const ABSOLUTE = [
  '/etc/passwd',
  '/etc/shadow',
  'C:\\Windows\\win.ini',
  'c:/windows/system32/drivers/etc/hosts',
  '/proc/self/environ',
  '/proc/self/cmdline',
  'file:///etc/passwd',
  '\\\\127.0.0.1\\c$\\windows\\win.ini',
  '/etc/passwd%00.jpg',
  '/root/.bash_history',
  'C:/inetpub/wwwroot/web.config',
  '/var/run/secrets/kubernetes.io/serviceaccount/token',
  '%2fetc%2fpasswd',
  '/etc//passwd',
  '/./etc/./shadow',
  'file://localhost/etc/passwd',
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'query', name: 'file' },
  { place: 'form', name: 'template' },
  { place: 'json', name: 'path' },
  { place: 'xml', name: 'document' },
  { place: 'multipart', name: 'attachment' },
  { place: 'cookie', name: 'lang' },
  { place: 'header', name: 'file-path' },
  { place: 'header', name: 'original-url' },
];

/** The query string carries an encoded value once more: a literal "%" must survive the trip. */
function attacks(): MaterialCase[] {
  const out: MaterialCase[] = [];
  const combos = cross(Object.entries(CLIMBS), TARGETS);
  // every encoding with every target at depths 2 and 6, spread over the places
  combos.forEach(([[how, climb], target], i) => {
    for (const depth of [2, 6]) {
      const where = PLACES[(i + depth) % PLACES.length] as { place: WafPlace; name: string };
      out.push({ ...where, value: climb.repeat(depth) + target, how: `${how}, depth ${depth}` });
    }
  });
  // one climb to a well-known file, in every place
  for (const where of PLACES) out.push({ ...where, value: `../${TARGETS[0]}`, how: 'one climb' });
  for (const [i, abs] of ABSOLUTE.entries()) {
    const where = PLACES[i % PLACES.length] as { place: WafPlace; name: string };
    out.push({ ...where, value: abs, how: 'absolute path' });
  }
  // in the request path itself (the encodings a proxy passes on)
  // (not a climb nginx decodes, "../" or "%2e%2e%2f", nor an invalid escape, "%u002e": nginx refuses
  // those itself, 400, before the WAF reads the request)
  const refusedByNginx = (climb: string) =>
    /%(?![0-9a-f]{2})/i.test(climb) ||
    /(?:^|\/)\.{1,2}\//.test(climb.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16))));
  const proxied = Object.entries(CLIMBS).filter(([, climb]) => !refusedByNginx(climb));
  // (sent as written, encoded once: only bytes a request line cannot carry are escaped)
  for (const [how, climb] of every(proxied, 2)) {
    const value = `static/${climb.repeat(4)}etc/passwd`;
    const path = `/app/${value.replace(/[^\x21-\x7e]|[#?]/gu, (c) => encodeURIComponent(c))}`;
    out.push({ place: 'path', name: '', value, how: `path, ${how}`, request: { method: 'GET', path, headers: {} } });
  }
  // JSON's own escapes, which the application's parser decodes (the body as sent)
  const json = (how: string, body: string): MaterialCase => ({
    place: 'json',
    name: 'file',
    value: body,
    how,
    request: { method: 'POST', path: '/app', headers: { 'content-type': 'application/json' }, body },
  });
  out.push(json('JSON \\u escapes', '{"file":"\\u002e\\u002e\\u002f\\u002e\\u002e\\u002fetc/passwd"}'));
  out.push(json('JSON \\u escaped slashes', '{"doc":{"path":"..\\u002f..\\u002f..\\u002fetc\\u002fshadow"}}'));
  out.push(json('JSON escaped slash', '{"a":[{"tpl":"..\\/..\\/..\\/etc\\/passwd"}]}'));
  // IIS / Symfony path overrides an application reads as the request path
  for (const header of ['X-Original-URL', 'X-Rewrite-URL']) {
    out.push({
      place: 'header',
      name: header,
      value: '/static/..%2f..%2f..%2fetc/passwd',
      how: `${header} override`,
      request: { method: 'GET', path: '/', headers: { [header]: '/static/..%2f..%2f..%2fetc/passwd' } },
    });
  }
  return out;
}

const BENIGN_VALUES = [
  '../images/logo.png',
  'v1.2..v1.3',
  'chapter 1.2.3',
  'see ... and more',
  'C:\\Users\\marie\\Documents\\report.docx',
  '/docs/getting-started',
  'release-notes/2024.05.md',
  'a/b/c/d.txt',
  'wait... what?',
  '1..10',
  'archive.tar.gz',
  './a/./b/',
  '[see the guide](../guide/intro.md)',
  '~/Downloads/report.pdf',
  'C:\\Program Files\\Example\\app.exe',
  '2024-01..2024-03',
  'and so on..',
  '/var/www is where the site lives',
  'etc. and more',
  'passwd reset form',
];

export const traversal: Material = {
  sources: [
    'OWASP Web Security Testing Guide, WSTG-ATHZ-01 "Testing Directory Traversal File Include"',
    'swisskyrepo/PayloadsAllTheThings, "Directory Traversal" (encodings, Tomcat ..;/, filter bypasses)',
    'wireghoul/dotdotpwn (its list of dot and slash encodings: overlong UTF-8, %u, double URL)',
    'Orange Tsai, "Breaking Parser Logic!" (Black Hat USA 2018): ..;/ through reverse proxies',
    'Unicode TR36 §3 (visually confusable dots and slashes: U+2024, U+2025, U+2215, U+FF0E)',
    'CAPEC-64 "Using Slashes and URL Encoding Combined to Bypass Validation Logic" and CAPEC-80 "Using UTF-8 Encoding to Bypass Validation Logic" (overlong forms, three-byte overlong dots)',
    'IIS X-Original-URL / X-Rewrite-URL path overrides (headers an application reads as the path)',
  ],
  attacks: attacks(),
  benign: cross(PLACES, BENIGN_VALUES).map(([where, value]) => ({ ...where, value, how: 'benign' })),
};
