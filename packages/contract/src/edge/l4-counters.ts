import { z } from 'zod';
import { isIP } from '../validators/ip.js';

/**
 * The layer-4 counters of a node (issue 22, network-attack analytics; docs/decisions.md "Layer-4
 * counters"): the kernel counts the packets and bytes of every layer-4 port where they enter and
 * once they passed the node's layer-4 rules (apps/edge/src/agent/l4/l4-rules-render.ts); the agent
 * reads the counters every few seconds (apps/edge/src/agent/l4/l4-counters.ts) and turns them into
 * these records, one per port, outcome, dimension and key, counted in one minute.
 */

/** The two outcomes of a packet at the node's layer-4 rules. */
export const L4_OUTCOMES = ['pass', 'drop'] as const;
export type L4Outcome = (typeof L4_OUTCOMES)[number];

/** The IP protocols counted: TCP and UDP per port, ICMP (v4 and v6) and GRE per node (port id 0). */
export const L4_IP_PROTOCOLS = ['tcp', 'udp', 'icmp', 'gre'] as const;
export type L4IpProtocol = (typeof L4_IP_PROTOCOLS)[number];

/**
 * The TCP flag combinations counted (ECE and CWR left aside): SYN, SYN+ACK, ACK and PSH+ACK
 * exactly; FIN any segment with FIN (FIN, FIN+ACK, FIN+PSH+ACK) and RST any with RST (RST,
 * RST+ACK), neither with SYN; everything else (no flag, SYN+FIN, URG, ...) is `other`.
 */
export const L4_TCP_FLAGS = ['SYN', 'SYN+ACK', 'ACK', 'PSH+ACK', 'FIN', 'RST', 'other'] as const;
export type L4TcpFlags = (typeof L4_TCP_FLAGS)[number];

/** The combination of a TCP header's flags byte. */
export function tcpFlagsOf(byte: number): L4TcpFlags {
  const f = byte & 0x3f;
  const FIN = 0x01;
  const SYN = 0x02;
  const RST = 0x04;
  if (f === SYN) return 'SYN';
  if (f === 0x12) return 'SYN+ACK';
  if (f === 0x10) return 'ACK';
  if (f === 0x18) return 'PSH+ACK';
  if ((f & SYN) === 0 && (f & FIN) !== 0 && (f & RST) === 0) return 'FIN';
  if ((f & SYN) === 0 && (f & RST) !== 0) return 'RST';
  return 'other';
}

/** What a record counts by: the IP protocol, the TCP flag combination, or the source address. */
export const L4_COUNTER_DIMENSIONS = ['protocol', 'tcpFlags', 'source'] as const;
export type L4CounterDimension = (typeof L4_COUNTER_DIMENSIONS)[number];

/** Sources a record set carries per port, outcome and minute (the rest are counted, not named). */
export const L4_SOURCES_PER_PORT = 100;
/** Most records one batch carries. */
export const L4_COUNTER_BATCH_MAX = 20_000;

export const l4CounterRecordSchema = z.strictObject({
  /** The minute counted: Unix seconds, a multiple of 60 (the node's clock). */
  minute: z
    .number()
    .int()
    .min(0)
    .max(4_102_444_800)
    .refine((n) => n % 60 === 0, { message: 'wrongFormat' }),
  /** The layer-4 port's id (contract edge/l4-rules.ts), 0 for the node's ICMP and GRE. */
  portId: z.number().int().min(0).max(2_147_483_647),
  outcome: z.enum(L4_OUTCOMES),
  dimension: z.enum(L4_COUNTER_DIMENSIONS),
  /** A protocol of L4_IP_PROTOCOLS, a combination of L4_TCP_FLAGS, or an address. */
  key: z.string().max(45),
  packets: z.number().int().min(0),
  bytes: z.number().int().min(0),
});
export type L4CounterRecord = z.infer<typeof l4CounterRecordSchema>;

const PROTOCOL_SET: ReadonlySet<string> = new Set(L4_IP_PROTOCOLS);
const FLAG_SET: ReadonlySet<string> = new Set(L4_TCP_FLAGS);

/** Whether a record's key belongs to its dimension. */
export function l4CounterKeyValid(r: Pick<L4CounterRecord, 'dimension' | 'key'>): boolean {
  switch (r.dimension) {
    case 'protocol':
      return PROTOCOL_SET.has(r.key);
    case 'tcpFlags':
      return FLAG_SET.has(r.key);
    case 'source':
      return isIP(r.key);
  }
}

/** A batch of counter records as the agent spools and ships it. */
export const l4CounterBatchSchema = z.strictObject({
  /** Unique per node for ever (as an event batch's id). */
  batchId: z.string().regex(/^[a-z0-9]{1,32}-[0-9]{1,16}$/),
  records: z
    .array(l4CounterRecordSchema.refine(l4CounterKeyValid, { message: 'wrongFormat', path: ['key'] }))
    .max(L4_COUNTER_BATCH_MAX),
});
export type L4CounterBatch = z.infer<typeof l4CounterBatchSchema>;
