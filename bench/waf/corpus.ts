// The corpora bench:waf replays (../shared/waf-corpus/README.md): read, filtered and checked here.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const LIMIT = process.env.BENCH_LIMIT ? Number(process.env.BENCH_LIMIT) : undefined;
/** `../shared/waf-corpus/` beside the checkout, or beside the worktrees' folder (/work/wt/<name>). */
export const CORPUS_DIR =
  process.env.BENCH_CORPUS_DIR ??
  [path.resolve(ROOT, '..', 'shared', 'waf-corpus'), path.resolve(ROOT, '..', '..', 'shared', 'waf-corpus')].find((d) =>
    existsSync(d),
  ) ??
  path.resolve(ROOT, '..', 'shared', 'waf-corpus');

export interface Case {
  file: string;
  id: string;
  label: 'attack' | 'benign' | 'info';
  set: string;
  category: string;
  raw: Buffer;
  noRewrite: Set<string>;
  gtwExcluded: boolean;
}

export interface CorpusFile {
  name: string;
  cases: Case[];
  skipped: number;
  info: number;
}

/** The shared corpora selected (`BENCH_CORPORA`), then `extra` (generated ones) when given. */
export async function readCorpora(extra?: CorpusFile): Promise<CorpusFile[]> {
  const wanted = process.env.BENCH_CORPORA?.split(',').map((s) => s.trim().replace(/\.jsonl$/, ''));
  const names = (await readdir(CORPUS_DIR)).filter((n) => n.endsWith('.jsonl')).sort();
  const files: CorpusFile[] = [];
  for (const file of names) {
    const name = file.replace(/\.jsonl$/, '');
    if (wanted && !wanted.includes(name)) continue;
    const lines = (await readFile(path.join(CORPUS_DIR, file), 'utf8')).split('\n').filter((l) => l.trim());
    const corpus: CorpusFile = { name, cases: [], skipped: 0, info: 0 };
    for (const line of LIMIT === undefined ? lines : lines.slice(0, LIMIT)) {
      const c = JSON.parse(line) as Record<string, unknown>;
      if (c.skip) {
        corpus.skipped++;
        continue;
      }
      if (c.label === 'info') {
        corpus.info++;
        continue;
      }
      if (c.label !== 'attack' && c.label !== 'benign') throw new Error(`${file}: ${String(c.id)}: label ${c.label}`);
      const raw =
        typeof c.raw === 'string'
          ? Buffer.from(c.raw, 'utf8')
          : typeof c.raw_b64 === 'string'
            ? Buffer.from(c.raw_b64, 'base64')
            : undefined;
      if (!raw) throw new Error(`${file}: ${String(c.id)} has neither raw nor raw_b64`);
      corpus.cases.push({
        file: name,
        id: String(c.id),
        label: c.label,
        set: String(c.set ?? ''),
        category: String(c.category ?? ''),
        raw,
        noRewrite: new Set(Array.isArray(c.no_rewrite) ? c.no_rewrite.map(String) : []),
        gtwExcluded: c.gtw_excluded === true,
      });
    }
    files.push(corpus);
  }
  if (extra) files.push(extra);
  if (files.length === 0) throw new Error(`no corpus selected in ${CORPUS_DIR}`);
  return files;
}
