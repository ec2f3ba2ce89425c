import { DNS_LINES, type DnsLine, type Locale } from '@rampart/contract';

/** The catalogue of DNS lines, named in one language. */
export function dnsLines(language: Locale): DnsLine[] {
  return DNS_LINES.map((line) => ({ id: line.id, name: line.name[language] }));
}

/** How many nodes and virtual nodes a group has on each line of the catalogue (0 when none). */
export function presentLineCounts(nodes: { line: string; n: number }[], virtualNodes: { line: string; n: number }[]) {
  const of = (rows: { line: string; n: number }[], line: string) => rows.find((r) => r.line === line)?.n ?? 0;
  return DNS_LINES.map(({ id }) => ({ line: id, nodeNum: of(nodes, id), virtualNodeNum: of(virtualNodes, id) }));
}
