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
];

const NAMES = ['next', 'url', 'redirect', 'returnUrl', 'return_to', 'redirect_uri', 'goto', 'dest', 'continue', 'r'];

function attacks(): MaterialCase[] {
  return VALUES.flatMap(([value, how], i) => {
    const name = NAMES[i % NAMES.length] as string;
    const places: WafPlace[] = ['query', 'form', 'json'];
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
    'WHATWG URL Standard (backslash as slash, tab and newline removal, scheme-relative URLs)',
  ],
  attacks: attacks(),
  benign: BENIGN,
};
