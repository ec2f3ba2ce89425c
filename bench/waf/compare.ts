/**
 * `npx tsx bench/waf/compare.ts <before.jsonl> <after.jsonl>` (bench only): two versions of the
 * WAF's verdicts on the same requests, as `bench/waf/profile.ts` writes them
 * (`BENCH_PROFILE_VERDICTS`), compared request by request. Prints one JSON object: per corpus the
 * requests judged by both, those that changed from pass to block and from block to pass (ids
 * only: the corpora carry real cookies), those blocked by another rule (ids and rules), and the µs of inspection
 * summed on each side. Exits 1 when a pass/block verdict changed.
 */
import { readFile } from 'node:fs/promises';

interface Verdict {
  file: string;
  id: string;
  rule: string;
  us: number;
}

async function read(file: string): Promise<Map<string, Verdict>> {
  const out = new Map<string, Verdict>();
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    const v = JSON.parse(line) as Verdict;
    // (a file written by several runs keeps each request's last verdict)
    out.set(`${v.file}\t${v.id}`, v);
  }
  return out;
}

async function main() {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (!beforeFile || !afterFile) throw new Error('usage: compare.ts <before.jsonl> <after.jsonl>');
  const [before, after] = await Promise.all([read(beforeFile), read(afterFile)]);
  type Row = {
    judged: number;
    to_block: string[];
    to_pass: string[];
    other_rule: string[];
    us_before: number;
    us_after: number;
  };
  const byFile: Record<string, Row> = {};
  let onlyOneSide = 0;
  for (const [key, b] of before) {
    const a = after.get(key);
    if (!a) {
      onlyOneSide++;
      continue;
    }
    const row = byFile[b.file] ?? { judged: 0, to_block: [], to_pass: [], other_rule: [], us_before: 0, us_after: 0 };
    byFile[b.file] = row;
    row.judged++;
    row.us_before += b.us;
    row.us_after += a.us;
    if (b.rule === 'pass' && a.rule !== 'pass') row.to_block.push(`${b.id} ${a.rule}`);
    else if (b.rule !== 'pass' && a.rule === 'pass') row.to_pass.push(`${b.id} ${b.rule}`);
    else if (b.rule !== a.rule) row.other_rule.push(`${b.id} ${b.rule} -> ${a.rule}`);
  }
  for (const key of after.keys()) if (!before.has(key)) onlyOneSide++;
  for (const row of Object.values(byFile)) {
    row.us_before = Math.round(row.us_before);
    row.us_after = Math.round(row.us_after);
  }
  const changed = Object.values(byFile).reduce((n, r) => n + r.to_block.length + r.to_pass.length, 0);
  process.stdout.write(`${JSON.stringify({ changed, only_one_side: onlyOneSide, by_file: byFile }, null, 1)}\n`);
  if (changed > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`waf compare: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
