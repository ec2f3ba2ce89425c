import type { WafPlace } from '../helpers/waf-send.js';
import type { Material, MaterialCase } from './types.js';

// Open redirects: a redirect parameter holding another host in the shapes browsers accept and
// same-site checks miss. The benign side: same-site paths, full URLs without tricks, words.

const VALUES: [string, string][] = [
  ['//evil.example', 'protocol relative'],
  ['///evil.example', 'three slashes'],
  ['////evil.example/', 'four slashes'],
  ['/\\evil.example', 'slash backslash'],
  ['\\/evil.example', 'backslash slash'],
  ['\\\\evil.example', 'two backslashes'],
  ['/\t/evil.example', 'tab between slashes'],
  ['%2f%2fevil.example', 'encoded slashes'],
  ['%252f%252fevil.example', 'double encoded slashes'],
  ['/%5cevil.example', 'encoded backslash'],
  ['https:evil.example', 'scheme without slashes'],
  ['https:/evil.example', 'scheme with one slash'],
  ['http:\\\\evil.example', 'scheme with backslashes'],
  ['https:///evil.example', 'scheme with three slashes'],
  ['https://trusted.example@evil.example', 'userinfo'],
  ['//trusted.example@evil.example', 'protocol relative userinfo'],
  ['javascript:alert(document.domain)', 'script scheme'],
  ['jaVAscript://%0aalert(1)', 'script scheme with a comment line'],
  ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data URL'],
  [' //evil.example', 'leading space'],
  ['/%2f%2fevil.example', 'slash then encoded slashes'],
  ['@evil.example', 'leading at'],
  ['\uff0f\uff0fevil.example', 'full-width solidus'],
  ['https:%2f%2fevil.example', 'scheme with encoded slashes'],
  ['%09//evil.example', 'leading encoded tab'],
  ['/%09/evil.example', 'encoded tab between slashes'],
  ['/%5C%5Cevil.example', 'encoded backslashes'],
  ['https:/\\evil.example', 'scheme, slash, backslash'],
  ['//evil%E3%80%82example', 'ideographic full stop as the dot'],
  ['//evil.example%2f%2e%2e', 'encoded climb after the host'],
  ['javascript%3Aalert(1)', 'encoded script scheme'],
  ['java%0d%0ascript:alert(1)', 'script scheme split by a line break'],
  ['//2130706433', 'decimal address'],
  ['//0x7f.0x0.0x0.0x1', 'hexadecimal address'],
  ['https://evil.example\\@trusted.example', 'backslash before userinfo'],
  ['%2F%2Fevil.example', 'upper-case encoded slashes'],
  ['/ /evil.example', 'space between slashes'],
];

const NAMES = [
  'next',
  'url',
  'redirect',
  'returnUrl',
  'return_to',
  'redirect_uri',
  'goto',
  'dest',
  'continue',
  'r',
  'returnTo',
  'redirect_url',
  'callback',
  'destination',
  'redir',
  'forward',
  'target',
  'RelayState',
];

function attacks(): MaterialCase[] {
  return VALUES.flatMap(([value, how], i) => {
    const name = NAMES[i % NAMES.length] as string;
    const places: WafPlace[] = ['query', 'form', 'json', i % 2 ? 'multipart' : 'xml'];
    return places.map((place) => ({ place, name, value, how: `${how}, ${place}` }));
  });
}

const BENIGN: MaterialCase[] = [
  '/account',
  '/search?q=shoes',
  'https://app.example/callback',
  '/a//b',
  'dashboard',
  '/en/products?id=7#top',
  'https://www.example.com/checkout?step=2',
  '/',
  '/login?next=%2Faccount',
  '/a/b/../c',
  'https://app.example/path//double',
  '/files/%2F-encoded',
  'mailto-settings',
].flatMap((value, i) =>
  (['query', 'form', 'json'] as WafPlace[]).map((place) => ({
    place,
    name: NAMES[i % NAMES.length] as string,
    value,
    how: 'benign',
  })),
);

export const redirect: Material = {
  sources: [
    'OWASP Cheat Sheet Series, "Unvalidated Redirects and Forwards"',
    'PortSwigger, "URL validation bypass cheat sheet"',
    'swisskyrepo/PayloadsAllTheThings, "Open Redirect"',
    'WHATWG URL Standard (backslash as slash, tab and newline removal, scheme-relative URLs, IPv4 in decimal and hexadecimal)',
    'UTS #46 (IDNA): U+3002 ideographic full stop read as a label separator',
    'Orange Tsai, "A New Era of SSRF" (Black Hat USA 2017): the authority parsed differently at "\\" and "@"',
  ],
  attacks: attacks(),
  benign: BENIGN,
};
