import {
  L4_IP_PROTOCOLS,
  type L4Outcome,
  type NetworkDimension,
  type NetworkRate,
  type NetworkSum,
  type NetworkTopRow,
  type StatisticsFilter,
} from '@rampart/contract';
import type { Caller } from '../../platform/http/bind-route.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import { analyticsScope } from './analytics-scope.js';
import type { L4StoredDim } from './analytics-store.js';
import { rangeOf } from './statistics.service.js';
import type { L4Reads, L4Rows } from './store/l4-reads.js';

/** The stored dimension each call's dimension reads (l4_counters.dim). */
const STORED_DIM: Record<NetworkDimension, L4StoredDim> = {
  country: 'country',
  ip: 'source',
  asn: 'asn',
  ipProtocol: 'protocol',
  tcpFlags: 'tcpFlags',
};

type Filter = Pick<StatisticsFilter, 'siteIDs' | 'domainIDs' | 'domainTags' | 'startTime' | 'endTime'>;

const ZERO: NetworkSum = { passBits: 0, dropBits: 0, passPackets: 0, dropPackets: 0 };

/**
 * The network-attack statistics (contract routes/network-statistics.ts; docs/decisions.md
 * "Layer-4 counters") from the layer-4 counters in the analytics store. Every query is limited to
 * the sites the caller may see (analytics-scope.ts): rows of another tenant's ports, of no site
 * (the node's own ICMP and GRE) or of ports a node does not serve for its operator are never read.
 * The counters are read through L4Reads (store/l4-reads.ts), which writes the SQL.
 */
export class L4StatisticsService {
  constructor(
    private readonly reads: L4Reads,
    private readonly repo: AnalyticsRepository,
    /** The organisations the caller's operator's ASN database names for these ASNs. */
    private readonly asnNames: (operatorId: number | null, asns: number[]) => Promise<Map<number, string>>,
  ) {}

  /** The counter rows of a dimension the caller may read over the filter's range (whole minutes). */
  private async rowsOf(caller: Caller, filter: Filter, dim: L4StoredDim): Promise<L4Rows> {
    const scope = await analyticsScope(this.repo, caller, filter);
    const { start, end } = rangeOf(filter);
    return { siteIds: scope.siteIds, dim, start: start - (start % 60), end };
  }

  /** Passed and dropped bits and packets over the range (the per-protocol rows hold every packet). */
  async sum(caller: Caller, filter: Filter): Promise<NetworkSum> {
    const out = { ...ZERO };
    for (const r of await this.reads.outcomes(await this.rowsOf(caller, filter, 'protocol'))) {
      out[`${r.outcome}Bits`] += r.bytes * 8;
      out[`${r.outcome}Packets`] += r.packets;
    }
    return out;
  }

  /**
   * The values of a dimension with most bits, largest first (`top` of them; every protocol for
   * the protocols, 0 when none), with their passed and dropped bits and packets.
   */
  async tops(caller: Caller, filter: Filter & { top?: number }, dimension: NetworkDimension): Promise<NetworkTopRow[]> {
    const rows = await this.reads.valueOutcomes(await this.rowsOf(caller, filter, STORED_DIM[dimension]));
    const byKey = new Map<string, NetworkTopRow>();
    if (dimension === 'ipProtocol') for (const p of L4_IP_PROTOCOLS) byKey.set(p, { key: p, ...ZERO });
    for (const r of rows) {
      const row = byKey.get(r.value) ?? { key: r.value, ...ZERO };
      row[`${r.outcome}Bits`] += r.bytes * 8;
      row[`${r.outcome}Packets`] += r.packets;
      byKey.set(r.value, row);
    }
    const list = [...byKey.values()];
    if (dimension === 'ipProtocol') return list;
    list.sort((a, b) => b.passBits + b.dropBits - (a.passBits + a.dropBits) || (a.key < b.key ? -1 : 1));
    const top = list.slice(0, filter.top ?? 5);
    if (dimension === 'asn') {
      const names = await this.asnNames(
        caller.operatorId,
        top.map((r) => Number(r.key)).filter((n) => n > 0),
      );
      for (const row of top) {
        const name = names.get(Number(row.key));
        if (name) row.name = name;
      }
    }
    return top;
  }

  /**
   * Bits per second per step: per outcome (`dimension` null), or per value of the dimension's top
   * values (every protocol for the protocols), of one outcome when `outcome` says so.
   */
  async rate(
    caller: Caller,
    filter: Filter & { minutesStep: number; top?: number; outcome?: L4Outcome | undefined },
    dimension: NetworkDimension | null,
  ): Promise<NetworkRate> {
    const seconds = filter.minutesStep * 60;
    const { start, end } = rangeOf(filter);
    const first = start - (start % seconds);
    const times: number[] = [];
    for (let t = first; t < end; t += seconds) times.push(t);
    let keys: string[];
    if (dimension === null) keys = ['pass', 'drop'];
    else if (dimension === 'ipProtocol') keys = [...L4_IP_PROTOCOLS];
    else keys = (await this.tops(caller, filter, dimension)).map((r) => r.key);
    const values = new Map<string, number[]>(keys.map((k) => [k, times.map(() => 0)]));
    if (keys.length > 0) {
      const rows = await this.rowsOf(caller, filter, dimension === null ? 'protocol' : STORED_DIM[dimension]);
      const steps =
        dimension === null
          ? await this.reads.steps(rows, seconds, 'outcome')
          : await this.reads.steps(rows, seconds, 'value', filter.outcome);
      for (const r of steps) {
        const series = values.get(r.key);
        const i = (r.time - first) / seconds;
        if (series && i >= 0 && i < series.length) series[i] = (series[i] ?? 0) + (r.bytes * 8) / seconds;
      }
    }
    return {
      minutesStep: filter.minutesStep,
      keys,
      points: times.map((t, i) => ({
        time: new Date(t * 1000).toISOString(),
        values: keys.map((k) => values.get(k)?.[i] ?? 0),
      })),
    };
  }
}
