import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, wafSender } from './helpers/waf-send.js';
import { MATERIAL, type MaterialCase } from './waf-material/index.js';

// The generated test material (waf-material/, from public descriptions of each technique) through
// a real nginx with a default WAF module (block, medium, every group): every attack of each
// category blocked in the part it rides in, every benign value of the same shapes let through.
// The counts per category are printed (what the WAF catches of the material).

let edge: Edge;
let origin: Origin;
const HOST = 'material.waf.example';
const sender = wafSender(() => edge, HOST);

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document(
      'waf-material-1',
      [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })],
      [],
      [],
      {
        modules: [wafModule(1)],
      },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const label = (c: MaterialCase) =>
  c.request
    ? `${c.request.method} ${c.request.path} (${c.how})`
    : `${c.place} ${c.name}=${JSON.stringify(c.value)} (${c.how})`;

async function judge(cases: MaterialCase[], want: 'blocked' | 'passed') {
  const wrong: string[] = [];
  for (const c of cases) {
    const r = c.request ? await sender.send(c.request) : await sender.sendIn(c.place, c.value, c.name || 'v');
    const ok = want === 'blocked' ? blocked(r) : passed(r);
    if (!ok) wrong.push(`${label(c)}: ${r.status}${r.origin ? ' from the origin' : ''}`);
  }
  return wrong;
}

describe('generated material per category', () => {
  for (const [category, material] of Object.entries(MATERIAL)) {
    it(`${category}: every attack blocked, every benign value passed`, async () => {
      const missed = await judge(material.attacks, 'blocked');
      const falsePositives = await judge(material.benign, 'passed');
      process.stderr.write(
        `waf-material ${category}: ${material.attacks.length - missed.length}/${material.attacks.length} attacks blocked, ` +
          `${material.benign.length - falsePositives.length}/${material.benign.length} benign passed\n`,
      );
      expect(material.sources.length).toBeGreaterThan(0);
      expect(material.attacks.length).toBeGreaterThan(30);
      expect({ missed, falsePositives }).toEqual({ missed: [], falsePositives: [] });
    });
  }
});
