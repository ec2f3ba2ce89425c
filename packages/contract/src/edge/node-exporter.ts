import { z } from 'zod';
import { canonicalIPEntry, isCIDR, isIP } from '../validators/ip.js';

/**
 * The operator's node exporter setting (spec part 2 §3 "Node exporter: limitCountSec,
 * limitCountTimes, whiteIPs"; docs/decisions.md "Metrics"): who may scrape the Prometheus metrics
 * each of its nodes' agents serves, and how often. Sent to the nodes in their snapshot and applied
 * by the agent in place (no nginx reload).
 *
 * - `whiteIPs`: addresses or CIDRs that may scrape; empty = nobody (the exporter answers no one).
 * - At most `limitCountTimes` scrapes per `limitCountSec` seconds from one address; over it, 429.
 */
export const NODE_EXPORTER_WHITE_IPS_MAX = 64;
export const NODE_EXPORTER_LIMIT_SEC_MAX = 3600;
export const NODE_EXPORTER_LIMIT_TIMES_MAX = 10_000;
/** The port the agent serves `/metrics` on unless started with `--metrics-port`. */
export const NODE_EXPORTER_PORT = 9145;

export const isNodeExporterEntry = (s: string): boolean => isIP(s) || isCIDR(s);

const whole = (max: number) =>
  z
    .number({ message: 'invalidValue' })
    .int({ message: 'invalidValue' })
    .min(1, { message: 'invalidValue' })
    .max(max, { message: 'invalidValue' });

export const nodeExporterSchema = z.strictObject({
  whiteIPs: z
    .array(z.string().max(64, { message: 'wrongFormat' }))
    .max(NODE_EXPORTER_WHITE_IPS_MAX, { message: 'tooMany' })
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((entry, i) => {
        if (!isNodeExporterEntry(entry)) {
          ctx.addIssue({ code: 'custom', path: [i], message: 'wrongFormat' });
          return;
        }
        const key = canonicalIPEntry(entry) as string;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: 'duplicateIP' });
        seen.add(key);
      });
    }),
  limitCountSec: whole(NODE_EXPORTER_LIMIT_SEC_MAX),
  limitCountTimes: whole(NODE_EXPORTER_LIMIT_TIMES_MAX),
});
export type NodeExporter = z.infer<typeof nodeExporterSchema>;

/** Until the operator sets one: nobody may scrape; a minute's window of 60 once someone may. */
export const NODE_EXPORTER_DEFAULT: NodeExporter = { whiteIPs: [], limitCountSec: 60, limitCountTimes: 60 };
