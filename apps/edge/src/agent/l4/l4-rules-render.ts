import { ipEntryBounds, type L4PortRules, type L4Rules } from '@rampart/contract';

/**
 * Renders the layer-4 protection document (packages/contract/src/edge/l4-rules.ts) into one
 * `nft -f` file that replaces the agent's own table, `inet rampart`, in one kernel transaction
 * (docs/decisions.md "Layer-4 protection in the kernel"). The file first makes sure the table
 * exists (`table inet rampart {}` is a no-op when it does), deletes it and defines it again: nft
 * sends the whole file as one netlink batch, so either the new table is in force or, when any line
 * is refused, the old one stays untouched. No other table or chain of the host is named.
 *
 * Defence in depth: the contract already refused anything that is not an integer, a keyword or an
 * IP/CIDR literal; here every number is checked again and every address is parsed again and
 * written back from its integer value (`l4Literal`), so no text of the document reaches the file.
 * Region codes only select CIDR lists and are never written.
 *
 * Layout:
 *
 *   set guarded        inet_service  the layer-4 ports and the zone's guarded ports
 *   set blocked4/6     dynamic,timeout  addresses blocked for a while (layer-7 DROP + Blacklist)
 *   set syn4/6, new4/6 dynamic,timeout  per-source meters of the zone's SYN and new-connection rates
 *   set p<id>_wl4/6, _bl4/6, _rg4/6    interval  a port's whitelist, blacklist, region CIDRs
 *   set cc4/6          dynamic         concurrent connections per port and source (ct count)
 *   set rt4/6          dynamic,timeout new-connection rate per port and source
 *   set pen4/6         dynamic,timeout port and source over the port's limit, for blockSeconds
 *   chain pre          prerouting, priority raw (-300): before conntrack, so a dropped packet
 *                      costs no conntrack entry: port whitelist (accept), blacklist, regions,
 *                      penalties; then on guarded ports the blocked set and the SYN rate
 *   chain input        input, priority filter - 10: after conntrack (ct count needs it), before
 *                      the host's own filter chains at 0; new connections only: port whitelist,
 *                      connection limit and rate, then the zone's new-connection rate
 *
 * Counters (the network-attack analytics, read by l4-counters.ts; docs/decisions.md "Layer-4
 * counters"): the kernel counts every packet of a layer-4 port twice, where it enters (`pre`,
 * before any of the rules above can drop it: "all") and once it got through every rule of this
 * table (`count_in`, input at filter - 5, after `input` and before the host's filter chains:
 * "pass"); dropped = all − pass. Counting at the drops instead would mean a counter in each of the
 * dozen drop rules; two lookups cost every packet the same. Each stage keeps, with a counter per
 * element:
 *
 *   set cnt_<stage>        inet_proto . inet_service  the ports' packets and bytes (a lookup counts)
 *   set cntf_<stage>       port . TCP flags byte       dynamic: the flag combinations seen (raw byte,
 *                                                      not the tcp_flag type: nft 1.0.6 aborts
 *                                                      listing a concatenation of flag values)
 *   set cnts_<stage>4/6    proto . port . source       dynamic, bounded, idle ones expire: top sources
 *   set cnt_node           inet_proto                  ICMP, ICMPv6 and GRE reaching the node (no port;
 *                                                      this table drops none of them: pass only)
 */

export const L4_TABLE = 'rampart';
/** Entries a dynamic set holds (per family); beyond it the kernel refuses new ones (drops nothing). */
export const DYNAMIC_SET_SIZE = 65_535;
/** How long an idle source stays in a rate meter. */
const METER_TIMEOUT_SECONDS = 60;

export const PRE_PRIORITY = -300;
export const INPUT_PRIORITY = -10;
/** The pass counters: after `input`, before the host's filter chains (priority 0). */
export const COUNT_PRIORITY = -5;
/** Sources a per-source counter set holds (per family and stage): the top lists' reach. */
export const SOURCE_SET_SIZE = 4096;
/** How long an idle source keeps its counter (longer than the reader's interval: none is lost). */
const SOURCE_TIMEOUT_SECONDS = 120;
/** TCP flag combinations a port's flag set holds (one byte: 256 per port at most). */
const FLAG_SET_SIZE = 65_535;
/** The counting stages: every packet where it enters, and those that passed the table. */
export const COUNT_STAGES = ['all', 'pass'] as const;
export type CountStage = (typeof COUNT_STAGES)[number];
/** The sets the counter reader lists. */
export const COUNTER_SETS: readonly string[] = [
  ...COUNT_STAGES.flatMap((s) => [`cnt_${s}`, `cntf_${s}`, `cnts_${s}4`, `cnts_${s}6`]),
  'cnt_node',
];

/** An address blocked for a while, with the seconds left. */
export interface L4BlockedEntry {
  ip: string;
  seconds: number;
}

/** Thrown for a value the renderer will not write (the contract should have refused it). */
export class L4RenderError extends Error {
  override readonly name = 'L4RenderError';
}

/** An integer in [min, max], or an L4RenderError. */
export function l4Int(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw new L4RenderError(`${what}: not an integer in ${min}–${max}`);
  return value;
}

const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => ((n >> s) & 255n).toString()).join('.');
const v6Text = (n: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((n >> BigInt((7 - i) * 16)) & 0xffffn).toString(16)).join(':');
const LITERAL_RE = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){7})$/;

/**
 * An address or CIDR as nft elements: its range written back from integers (`a` or `a-b`), with
 * its family. Anything that does not parse as an address or CIDR is an L4RenderError.
 */
export function l4Literal(entry: unknown): { version: 4 | 6; from: bigint; to: bigint } {
  if (typeof entry !== 'string' || entry.length > 50 || !/^[0-9a-fA-F.:/]+$/.test(entry))
    throw new L4RenderError(`not an address literal: ${JSON.stringify(entry)?.slice(0, 60)}`);
  const bounds = ipEntryBounds(entry);
  if (bounds === null || entry.includes('-'))
    throw new L4RenderError(`not an address literal: ${JSON.stringify(entry).slice(0, 60)}`);
  return bounds;
}

/** Sorted, merged element texts of `entries` per family (an interval set refuses overlaps). */
export function elementsOf(entries: readonly string[]): { v4: string[]; v6: string[] } {
  const byFamily: Record<4 | 6, { from: bigint; to: bigint }[]> = { 4: [], 6: [] };
  for (const entry of entries) {
    const { version, from, to } = l4Literal(entry);
    byFamily[version].push({ from, to });
  }
  const merged = (ranges: { from: bigint; to: bigint }[], text: (n: bigint) => string) => {
    ranges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    const out: { from: bigint; to: bigint }[] = [];
    for (const r of ranges) {
      const last = out[out.length - 1];
      if (last && r.from <= last.to + 1n) {
        if (r.to > last.to) last.to = r.to;
      } else out.push({ ...r });
    }
    return out.map((r) => {
      const from = text(r.from);
      const to = text(r.to);
      if (!LITERAL_RE.test(from) || !LITERAL_RE.test(to)) throw new L4RenderError('address text out of form');
      return r.from === r.to ? from : `${from}-${to}`;
    });
  };
  return { v4: merged(byFamily[4], v4Text), v6: merged(byFamily[6], v6Text) };
}

type Family = 4 | 6;
const FAMILIES: readonly Family[] = [4, 6];
const ipType = (f: Family) => (f === 4 ? 'ipv4_addr' : 'ipv6_addr');
const saddr = (f: Family) => (f === 4 ? 'ip saddr' : 'ip6 saddr');

function elements(list: readonly string[]): string {
  // Long lists on several lines: nft reads any length, people reading `nft list` do too.
  const lines: string[] = [];
  for (let i = 0; i < list.length; i += 8) lines.push(list.slice(i, i + 8).join(', '));
  return lines.length === 0 ? '' : ` elements = {\n      ${lines.join(',\n      ')}\n    }`;
}

const intervalSet = (name: string, f: Family, list: readonly string[]) =>
  `  set ${name} {\n    type ${ipType(f)}; flags interval;${elements(list)}\n  }`;
const dynamicSet = (name: string, f: Family, timeout: boolean, defaultTimeout?: number) =>
  `  set ${name} { type ${ipType(f)}; flags dynamic${timeout ? ',timeout' : ''}; size ${DYNAMIC_SET_SIZE};${
    defaultTimeout !== undefined ? ` timeout ${defaultTimeout}s;` : ''
  } }`;

function rateText(rate: number, burst: number): string {
  const r = l4Int(rate, 1, 10_000_000, 'rate');
  const b = l4Int(burst, 0, 10_000_000, 'burst');
  return `limit rate over ${r}/second${b > 0 ? ` burst ${b} packets` : ''}`;
}

/** The nft -f text replacing table `inet rampart` with `rules` (`blocked`: addresses to keep blocked). */
export function renderL4Ruleset(rules: L4Rules, blocked: readonly L4BlockedEntry[] = []): string {
  const sets: string[] = [];
  const chains: string[] = [];
  const preDispatch: string[] = [];
  const inputDispatch: string[] = [];
  const regionCidrs = new Map(rules.regions.map((r) => [r.code, r.cidrs]));
  const guarded = new Set<number>();
  for (const p of rules.zone.guardedPorts) guarded.add(l4Int(p, 1, 65_535, 'guarded port'));

  const blockedElements: Record<Family, string[]> = { 4: [], 6: [] };
  for (const entry of blocked) {
    const { version, from, to } = l4Literal(entry.ip);
    if (from !== to) throw new L4RenderError('a blocked entry is one address');
    const text = version === 4 ? v4Text(from) : v6Text(from);
    blockedElements[version].push(`${text} timeout ${l4Int(entry.seconds, 1, 86_400 * 30, 'blocked seconds')}s`);
  }
  for (const f of FAMILIES) {
    sets.push(
      `  set blocked${f} {\n    type ${ipType(f)}; flags dynamic,timeout; size ${DYNAMIC_SET_SIZE};${elements(blockedElements[f])}\n  }`,
    );
  }
  const { synFlood, newConnections } = rules.zone;
  for (const f of FAMILIES) {
    // The connection limits of every port share three sets per family, keyed by port and source:
    // a set per port made a table of a few hundred limited ports take seconds to load.
    const portKey = `inet_service . ${ipType(f)}`;
    sets.push(`  set cc${f} { type ${portKey}; flags dynamic; size ${DYNAMIC_SET_SIZE}; }`);
    sets.push(
      `  set rt${f} { type ${portKey}; flags dynamic,timeout; size ${DYNAMIC_SET_SIZE}; timeout ${METER_TIMEOUT_SECONDS}s; }`,
    );
    sets.push(`  set pen${f} { type ${portKey}; flags dynamic,timeout; size ${DYNAMIC_SET_SIZE}; }`);
    if (synFlood) sets.push(dynamicSet(`syn${f}`, f, true, METER_TIMEOUT_SECONDS));
    if (newConnections) sets.push(dynamicSet(`new${f}`, f, true, METER_TIMEOUT_SECONDS));
  }

  const counted: string[] = [];
  for (const port of rules.ports) {
    const id = l4Int(port.id, 1, 2_147_483_647, 'port id');
    const number = l4Int(port.port, 1, 65_535, 'port');
    guarded.add(number);
    const protocols = portProtocols(port);
    for (const proto of protocols) {
      counted.push(`${proto} . ${number}`);
      preDispatch.push(`${proto} . ${number} : jump p${id}_pre`);
      // After conntrack a port needs its chain for its limit, or to spare its whitelist the zone's rate.
      if (port.connectionLimit || newConnections) inputDispatch.push(`${proto} . ${number} : jump p${id}_in`);
    }
    const white = elementsOf(port.whitelist);
    const black = elementsOf(port.blacklist);
    const region = port.regions ? elementsOf(port.regions.codes.flatMap((c) => regionCidrs.get(c) ?? [])) : null;
    const limit = port.connectionLimit;
    const pre: string[] = [];
    const input: string[] = [];
    for (const f of FAMILIES) {
      const key = f === 4 ? 'v4' : 'v6';
      sets.push(intervalSet(`p${id}_wl${f}`, f, white[key]));
      sets.push(intervalSet(`p${id}_bl${f}`, f, black[key]));
      pre.push(`${saddr(f)} @p${id}_wl${f} accept`);
      if (black[key].length > 0) pre.push(`${saddr(f)} @p${id}_bl${f} drop`);
      if (region && port.regions) {
        sets.push(intervalSet(`p${id}_rg${f}`, f, region[key]));
        const mode = port.regions.mode;
        if (mode === 'allow') pre.push(`${saddr(f)} != @p${id}_rg${f} drop`);
        else if (region[key].length > 0) pre.push(`${saddr(f)} @p${id}_rg${f} drop`);
      }
      if (limit || newConnections) input.push(`${saddr(f)} @p${id}_wl${f} accept`);
      if (limit) {
        const max = l4Int(limit.max, 1, 1_000_000, 'max');
        const seconds = l4Int(limit.blockSeconds, 0, 86_400, 'blockSeconds');
        const key = `th dport . ${saddr(f)}`;
        const penalty = seconds > 0 ? ` update @pen${f} { ${key} timeout ${seconds}s }` : '';
        if (seconds > 0) pre.push(`${key} @pen${f} drop`);
        input.push(`add @cc${f} { ${key} ct count over ${max} }${penalty} drop`);
        if (limit.rate !== null)
          input.push(`update @rt${f} { ${key} ${rateText(limit.rate, limit.burst)} }${penalty} drop`);
      }
    }
    chains.push(chain(`p${id}_pre`, null, pre));
    if (input.length > 0) chains.push(chain(`p${id}_in`, null, input));
  }

  const zonePre: string[] = [];
  const zoneInput: string[] = [];
  for (const f of FAMILIES) {
    zonePre.push(`${saddr(f)} @blocked${f} drop`);
    if (synFlood)
      zonePre.push(
        `tcp flags & (fin | syn | rst | ack) == syn update @syn${f} { ${saddr(f)} ${rateText(synFlood.rate, synFlood.burst)} } drop`,
      );
    if (newConnections)
      zoneInput.push(`update @new${f} { ${saddr(f)} ${rateText(newConnections.rate, newConnections.burst)} } drop`);
  }
  const guardedList = [...guarded].sort((a, b) => a - b);
  sets.unshift(
    `  set guarded {\n    type inet_service;${guardedList.length > 0 ? ` elements = { ${guardedList.join(', ')} }` : ''}\n  }`,
  );
  chains.push(chain('zone_pre', null, zonePre));
  if (zoneInput.length > 0) chains.push(chain('zone_in', null, zoneInput));

  const countChains: string[] = [];
  for (const stage of COUNT_STAGES) {
    sets.push(
      `  set cnt_${stage} {\n    type inet_proto . inet_service; counter;${counted.length > 0 ? ` elements = { ${counted.join(', ')} }` : ''}\n  }`,
      `  set cntf_${stage} { typeof th dport . @th,104,8; flags dynamic; size ${FLAG_SET_SIZE}; counter; }`,
    );
    for (const f of FAMILIES)
      sets.push(
        `  set cnts_${stage}${f} { type inet_proto . inet_service . ${ipType(f)}; flags dynamic,timeout; size ${SOURCE_SET_SIZE}; timeout ${SOURCE_TIMEOUT_SECONDS}s; counter; }`,
      );
    countChains.push(
      chain(`count_${stage}`, null, [
        `meta l4proto tcp update @cntf_${stage} { th dport . @th,104,8 }`,
        ...FAMILIES.map((f) => `update @cnts_${stage}${f} { meta l4proto . th dport . ${saddr(f)} }`),
      ]),
    );
  }
  sets.push('  set cnt_node { type inet_proto; flags dynamic; size 16; counter; }');

  const preRules = ['meta iiftype loopback accept'];
  // Counted before any rule can drop: a lookup in the counter set counts the port's packet.
  if (counted.length > 0) preRules.push('meta l4proto . th dport @cnt_all jump count_all');
  if (preDispatch.length > 0) preRules.push(`meta l4proto . th dport vmap { ${preDispatch.join(', ')} }`);
  preRules.push('meta l4proto { tcp, udp } th dport @guarded jump zone_pre');
  const inputRules = ['ct state != new accept', 'meta iiftype loopback accept'];
  if (inputDispatch.length > 0) inputRules.push(`meta l4proto . th dport vmap { ${inputDispatch.join(', ')} }`);
  if (zoneInput.length > 0) inputRules.push('meta l4proto { tcp, udp } th dport @guarded jump zone_in');

  return [
    `# Rendered by rampart-edge: the node's layer-4 rules. Replaced as a whole; do not edit.`,
    `table inet ${L4_TABLE} {}`,
    `delete table inet ${L4_TABLE}`,
    `table inet ${L4_TABLE} {`,
    ...sets,
    chain('pre', `type filter hook prerouting priority ${PRE_PRIORITY}; policy accept;`, preRules),
    chain('input', `type filter hook input priority ${INPUT_PRIORITY}; policy accept;`, inputRules),
    chain('count_in', `type filter hook input priority ${COUNT_PRIORITY}; policy accept;`, [
      'meta iiftype loopback accept',
      'meta l4proto { icmp, ipv6-icmp, gre } update @cnt_node { meta l4proto } accept',
      ...(counted.length > 0 ? ['meta l4proto . th dport @cnt_pass jump count_pass'] : []),
    ]),
    ...chains,
    ...countChains,
    '}',
    '',
  ].join('\n');
}

function portProtocols(port: L4PortRules): ('tcp' | 'udp')[] {
  switch (port.protocol) {
    case 'tcp':
      return ['tcp'];
    case 'udp':
      return ['udp'];
    case 'both':
      return ['tcp', 'udp'];
    default:
      throw new L4RenderError('protocol: not tcp, udp or both');
  }
}

function chain(name: string, base: string | null, rules: readonly string[]): string {
  return [`  chain ${name} {`, ...(base ? [`    ${base}`] : []), ...rules.map((r) => `    ${r}`), '  }'].join('\n');
}

/**
 * The nft -f text adding addresses to the blocked sets for `seconds` each. An address already
 * there gets the new timeout: added (a no-op when present), deleted and added again with its
 * timeout, all in one transaction.
 */
export function renderBlock(entries: readonly L4BlockedEntry[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const seconds = l4Int(entry.seconds, 1, 86_400 * 30, 'blocked seconds');
    const { set, ip } = blockedElement(entry.ip);
    lines.push(`add element ${set} { ${ip} }`, `delete element ${set} { ${ip} }`);
    lines.push(`add element ${set} { ${ip} timeout ${seconds}s }`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The nft -f text taking addresses out of the blocked sets: added first (a no-op when present), so
 * that an address the set no longer holds (its block ended) is no error.
 */
export function renderUnblock(ips: readonly string[]): string {
  const lines: string[] = [];
  for (const address of ips) {
    const { set, ip } = blockedElement(address);
    lines.push(`add element ${set} { ${ip} }`, `delete element ${set} { ${ip} }`);
  }
  return `${lines.join('\n')}\n`;
}

/** An address of a blocked set, parsed and written back from its value, and the set that holds it. */
function blockedElement(address: string): { set: string; ip: string } {
  const { version, from, to } = l4Literal(address);
  if (from !== to) throw new L4RenderError('a blocked entry is one address');
  return { set: `inet ${L4_TABLE} blocked${version}`, ip: version === 4 ? v4Text(from) : v6Text(from) };
}
