import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';

/**
 * Publishing the operator's DNS records (spec part 2 §7 "System settings": `dns/unprocessed`,
 * `dns/recovery`). Rampart keeps the records of its customers' CNAME targets at the operator's DNS
 * provider in step with the configuration and the monitors (docs/decisions.md "Publishing DNS
 * records"); a change the provider refused or failed waits in `dns/unprocessed` with the provider's
 * error and is retried with backoff.
 *
 * - `GET dns/unprocessed`: the waiting changes, the latest first.
 * - `POST dns/unprocessed` with `ids`: retries those now (a reconciliation of the operator), ids that
 *   are not the operator's are 101003 on `ids`.
 * - `POST dns/recovery`: re-publishes every record now (each set written again, every waiting change
 *   retried). Both answer what the pass wrote and how many changes failed; `ran` false when another
 *   control-plane process is reconciling the operator at that moment (it does the work).
 * Both are 101006 when the operator has no DNS provider.
 */

export const DNS_UNPROCESSED_MAX_IDS = 100;

export const dnsUnprocessedSchema = z.object({
  id: z.number().int(),
  /** The record's name (absolute, no trailing dot). */
  name: z.string(),
  type: z.enum(['A', 'AAAA', 'CNAME']),
  /** The DNS line id (`client/dns/lines`). */
  line: z.string(),
  /** What Rampart tried: write the set (`upsert`) or remove it (`delete`). */
  action: z.enum(['upsert', 'delete']),
  ttl: z.number().int(),
  values: z.array(z.string()),
  /** The provider's words. */
  error: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  updatedAt: z.string(),
});
export type DnsUnprocessed = z.infer<typeof dnsUnprocessedSchema>;

export const dnsPassSchema = z.object({
  ran: z.boolean(),
  written: z.number().int(),
  failed: z.number().int(),
});
export type DnsPass = z.infer<typeof dnsPassSchema>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const listDnsUnprocessed = route.get('client.setting.dns.unprocessed', '/client/setting/dns/unprocessed', {
  summary: 'Record changes the DNS provider refused or failed, waiting to be retried',
  query: pageQuery,
  response: pageOf(dnsUnprocessedSchema),
});

export const retryDnsUnprocessed = route.post(
  'client.setting.dns.unprocessed.retry',
  '/client/setting/dns/unprocessed',
  {
    codes: [101006],
    sendsOnDemand: true,
    summary: 'Retries the waiting record changes `ids` now',
    body: z.object({ ids: zIds(DNS_UNPROCESSED_MAX_IDS) }),
    response: dataOf(dnsPassSchema),
  },
);

export const recoverDns = route.post('client.setting.dns.recovery', '/client/setting/dns/recovery', {
  codes: [101006],
  sendsOnDemand: true,
  summary: 'Re-publishes every DNS record of the operator now',
  response: dataOf(dnsPassSchema),
});

export const dnsPublishRoutes = { listDnsUnprocessed, retryDnsUnprocessed, recoverDns } as const;
