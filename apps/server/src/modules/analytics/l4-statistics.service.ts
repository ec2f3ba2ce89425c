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
import type { AnalyticsStore, L4StoredDim } from './analytics-store.js';
import { rangeOf } from './statistics.service.js';

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
 * The SQL holds integers the service computed and constant names only; no value of a request.
 */
export class L4StatisticsService {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly repo: AnalyticsRepository,
    /** The organisations the caller's operator's ASN database names for these ASNs. */
    private readonly asnNames: (operatorId: number | null, asns: number[]) => Promise<Map<number, string>>,
  ) {}

  private async where(caller: Caller, filter: Filter, dim: L4StoredDim): Promise<string | null> {
    const scope = await analyticsScope(this.repo, caller, filter);
    if (scope.siteIds.length === 0) return null;
    const { start, end } = rangeOf(filter);
    const from = start - (start % 60);
    for (const n of [...scope.siteIds, from, end]) if (!Number.isSafeInteger(n)) throw new Error('not an integer');
    return `site_id IN (${scope.siteIds.join(', ')}) AND dim = '${dim}' AND bucket >= ${from} AND bucket < ${end}`;
  }

  /** Passed and dropped bits and packets over the range (the per-protocol rows hold every packet). */
  async sum(caller: Caller, filter: Filter): Promise<NetworkSum> {
    const where = await this.where(caller, filter, 'protocol');
    if (where === null) return { ...ZERO };
    const rows = await this.store.query(
      `SELECT outcome, sum(packets) AS packets, sum(bytes) AS bytes FROM l4_counters WHERE ${where} GROUP BY outcome`,
    );
    const out = { ...ZERO };
    for (const r of rows) {
      const o = r.outcome === 'pass' ? 'pass' : 'drop';
      out[`${o}Bits`] += Number(r.bytes) * 8;
      out[`${o}Packets`] += Number(r.packets);
    }
    return out;
  }

  /**
   * The values of a dimension with most bits, largest first (`top` of them; every protocol for
   * the protocols, 0 when none), with their passed and dropped bits and packets.
   */
  async tops(caller: Caller, filter: Filter & { top?: number }, dimension: NetworkDimension): Promise<NetworkTopRow[]> {
    const where = await this.where(caller, filter, STORED_DIM[dimension]);
    const rows =
      where === null
        ? []
        : await this.store.query(
            `SELECT value, outcome, sum(packets) AS packets, sum(bytes) AS bytes FROM l4_counters WHERE ${where} GROUP BY value, outcome`,
          );
    const byKey = new Map<string, NetworkTopRow>();
    if (dimension === 'ipProtocol') for (const p of L4_IP_PROTOCOLS) byKey.set(p, { key: p, ...ZERO });
    for (const r of rows) {
      const key = String(r.value);
      const row = byKey.get(key) ?? { key, ...ZERO };
      const o = r.outcome === 'pass' ? 'pass' : 'drop';
      row[`${o}Bits`] += Number(r.bytes) * 8;
      row[`${o}Packets`] += Number(r.packets);
      byKey.set(key, row);
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
    const where = await this.where(caller, filter, dimension === null ? 'protocol' : STORED_DIM[dimension]);
    if (where !== null && keys.length > 0) {
      const outcome =
        dimension !== null && filter.outcome ? ` AND outcome = '${filter.outcome === 'pass' ? 'pass' : 'drop'}'` : '';
      const group = dimension === null ? 'outcome' : 'value';
      const rows = await this.store.query(
        `SELECT bucket - bucket % ${seconds} AS t, ${group} AS k, sum(bytes) AS bytes FROM l4_counters ` +
          `WHERE ${where}${outcome} GROUP BY t, k`,
      );
      for (const r of rows) {
        const series = values.get(String(r.k));
        const i = (Number(r.t) - first) / seconds;
        if (series && i >= 0 && i < series.length) series[i] = (series[i] ?? 0) + (Number(r.bytes) * 8) / seconds;
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
