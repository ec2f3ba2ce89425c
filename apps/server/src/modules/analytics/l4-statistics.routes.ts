import { networkStatisticsRoutes as n, shipNodeL4Counters } from '@rampart/contract';
import type { Binder, BindOptions } from '../../platform/http/bind-route.js';
import type { L4IngestService } from './l4-ingest.service.js';
import type { L4StatisticsService } from './l4-statistics.service.js';

/**
 * The layer-4 counters' calls (docs/decisions.md "Layer-4 counters"): the nodes' batches in, the
 * twelve network-attack statistics out.
 */
export function bindL4StatisticsRoutes(
  binder: Binder,
  ingest: L4IngestService,
  stats: L4StatisticsService,
  /** The counters' admission (platform/http/node-admission.ts): signature over the headers, places. */
  admitCounters: BindOptions['admit'],
): void {
  binder.bind(shipNodeL4Counters, async ({ body }, { node }) => ({ data: await ingest.ingest(node.nodeId, body) }), {
    admit: admitCounters,
  });
  binder.bind(n.userNetworkOutcomesSumBits, async ({ body }, { caller }) => ({ data: await stats.sum(caller, body) }));
  binder.bind(n.userNetworkOutcomesAvgBitRate, async ({ body }, { caller }) => ({
    data: await stats.rate(caller, body, null),
  }));
  const dims = [
    [n.userNetworkCountriesTops, n.userNetworkCountriesAvgBitRate, 'country'],
    [n.userNetworkIpsTops, n.userNetworkIpsAvgBitRate, 'ip'],
    [n.userNetworkAsnsTops, n.userNetworkAsnsAvgBitRate, 'asn'],
    [n.userNetworkTcpFlagsTops, n.userNetworkTcpFlagsAvgBitRate, 'tcpFlags'],
  ] as const;
  for (const [tops, rate, dim] of dims) {
    binder.bind(tops, async ({ body }, { caller }) => ({ data: await stats.tops(caller, body, dim) }));
    binder.bind(rate, async ({ body }, { caller }) => ({ data: await stats.rate(caller, body, dim) }));
  }
  binder.bind(n.userNetworkIpProtocolsBits, async ({ body }, { caller }) => ({
    data: await stats.tops(caller, body, 'ipProtocol'),
  }));
  binder.bind(n.userNetworkIpProtocolsAvgBitRate, async ({ body }, { caller }) => ({
    data: await stats.rate(caller, body, 'ipProtocol'),
  }));
}
