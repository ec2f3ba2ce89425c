import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, type WafPlace, wafSender } from './helpers/waf-send.js';

// Benign values the WAF used to block, told from the attacks they resemble by the grammar the
// attack needs (a default module, through a real nginx), in every part they ride in:
// - "INTO OUTFILE" in prose: MySQL writes a file only when a string literal names it;
// - a build tool's recursive glob ("src/**/*.ts"): no shell expands "**" into a path, while the
//   wildcards that spell a system path ("/e??/p?ss*") are still read as such.
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
    shape: 'a recursive glob',
    benign: ['src/**/*.ts', 'packages/*/src/**/*.test.ts', '!**/node_modules/**'],
    // (the second: only "?" wildcards, which the prefilter once let through unread)
    attacks: ['cat /e??/p?ss*', '/???/c?t /e??/p?sswd', ';/b??/ca* /et*/sh*dow', '/bin/c?t /e*c/p*wd'],
  },
];

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
