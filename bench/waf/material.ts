// The generated WAF test material (apps/edge/test/waf-material/: per category, attacks in every
// encoding and request part, and benign look-alikes of the same shapes) as a corpus bench:waf
// replays through every target like the shared ones: `material`, one category per generator,
// attacks judged by the share blocked, look-alikes by the share blocked (false positives).
import { wafRequest } from '../../apps/edge/test/helpers/waf-send.js';
import { MATERIAL, type MaterialCase } from '../../apps/edge/test/waf-material/index.js';
import type { Case, CorpusFile } from './corpus.js';

/** The raw request of one case (Host and Content-Length as a client sends them). */
function raw(c: MaterialCase): Buffer {
  const r = c.request ?? wafRequest(c.place, c.value, c.name || 'v');
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body, 'utf8');
  const head = [`${r.method} ${r.path} HTTP/1.1`, 'Host: material.example'];
  if (!Object.keys(r.headers).some((h) => h.toLowerCase() === 'user-agent'))
    head.push('User-Agent: Mozilla/5.0 bench-waf');
  for (const [name, value] of Object.entries(r.headers)) head.push(`${name}: ${value}`);
  if (r.body !== undefined) head.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** The material as a corpus (`BENCH_MATERIAL=0` leaves it out; `BENCH_CORPORA` may name it). */
export function materialCorpus(): CorpusFile | undefined {
  const wanted = process.env.BENCH_CORPORA?.split(',').map((s) => s.trim());
  if (process.env.BENCH_MATERIAL === '0' || (wanted && !wanted.includes('material'))) return undefined;
  const cases: Case[] = [];
  for (const [category, material] of Object.entries(MATERIAL)) {
    for (const [label, list] of [
      ['attack', material.attacks],
      ['benign', material.benign],
    ] as const) {
      list.forEach((c, i) => {
        cases.push({
          file: 'material',
          id: `${category}-${label}-${i}`,
          label,
          set: `${c.place}`,
          category,
          raw: raw(c),
          noRewrite: new Set(),
          gtwExcluded: false,
        });
      });
    }
  }
  return { name: 'material', cases, skipped: 0, info: 0 };
}
