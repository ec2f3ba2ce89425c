import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { outgoingTarget } from '../validators/outgoing-target.js';
import { normalizeHostPort } from '../validators/url.js';
import { addValidationIssue, zDomainName } from '../validators/zod.js';
import { zPushUrl } from './log-push.js';

/**
 * The operator's DNS provider (spec part 2 §7 "System settings": `client/setting/dns` GET/POST/
 * DELETE and `dns/test`; part 1 §2 `dnsSetting`, §3 `dnsType`). The provider is where Rampart
 * publishes the records of the operator's CNAME zone (the reconciliation of later work); saving
 * one sets the operator's `dnsType`, deleting it clears it.
 *
 * - One setting per operator; the provider's type is its `dnsType` (`powerdns`, `rfc2136`,
 *   `cloudflare`, `dnspod`).
 * - Secrets (PowerDNS API key, TSIG secret, Cloudflare token, DNSPod token) are write-only:
 *   answers carry `hasSecret`, and a save or test that leaves the secret out (or '') keeps the
 *   stored one when the type is unchanged; otherwise it is required (101003 `required`).
 * - Saving does not contact the provider; `dns/test` does (with the submitted values, the stored
 *   secret filling a missing one) and answers 101010 with the provider's message when it fails.
 */

export const DNS_PROVIDER_TYPES = ['powerdns', 'rfc2136', 'cloudflare', 'dnspod'] as const;
export type DnsProviderType = (typeof DNS_PROVIDER_TYPES)[number];
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha512'] as const;
export type TsigAlgorithm = (typeof TSIG_ALGORITHMS)[number];
/** The TTL of published records unless the operator sets another (seconds). */
export const DEFAULT_DNS_TTL = 60;

/** A secret field: printable ASCII, write-only; '' or absent = keep the stored one. */
const zDnsSecret = z
  .string()
  .max(1024, { message: 'tooLong' })
  .regex(/^[\x21-\x7e]*$/, { message: 'invalidCharacter' })
  .optional()
  .transform((s) => (s === '' ? undefined : s));

/** `host[:port]` of a DNS server (a domain name or IPv4; IPv6 as `[addr]:port`); port 53 when left out. */
export const zDnsServerAddress = outgoingTarget(
  z
    .string()
    .max(300, { message: 'tooLong' })
    .transform((value, ctx) => {
      const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(value);
      if (v6) {
        const port = v6[2] === undefined ? 53 : Number(v6[2]);
        if (port < 1 || port > 65535) {
          addValidationIssue(ctx, { ok: false, key: 'invalidPort' });
          return z.NEVER;
        }
        return `[${(v6[1] ?? '').toLowerCase()}]:${port}`;
      }
      const checked = normalizeHostPort(value);
      if (!checked.ok) {
        addValidationIssue(ctx, { ok: false, key: checked.key });
        return z.NEVER;
      }
      return checked.value.includes(':') ? checked.value : `${checked.value}:53`;
    }),
  'hostPort',
);

const zZone = zDomainName({ wildcard: false });
const zTtl = z
  .number({ message: 'invalidValue' })
  .int({ message: 'invalidValue' })
  .min(1, { message: 'invalidValue' })
  .max(86_400, { message: 'invalidValue' })
  .default(DEFAULT_DNS_TTL);

const powerDnsIn = z.object({
  type: z.literal('powerdns'),
  /** The API's base URL, e.g. `http://127.0.0.1:8081` (calls go to `<url>/api/v1/...`). */
  apiUrl: zPushUrl,
  /** The `X-API-Key` (write-only). */
  apiKey: zDnsSecret,
  /** The server id of the API path (`localhost` on a stock install). */
  serverId: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { message: 'wrongFormat' })
    .default('localhost'),
  zone: zZone,
  ttl: zTtl,
});
const rfc2136In = z.object({
  type: z.literal('rfc2136'),
  /** The primary server that takes the updates, `host[:port]`. */
  server: zDnsServerAddress,
  zone: zZone,
  /** The TSIG key's name as the server knows it (a DNS name; one label is enough). */
  keyName: z
    .string()
    .regex(
      /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/,
      {
        message: 'wrongFormat',
      },
    )
    .transform((s) => s.replace(/\.$/, '').toLowerCase()),
  algorithm: z.enum(TSIG_ALGORITHMS, { message: 'invalidValue' }),
  /** The TSIG secret, base64 (write-only). */
  secret: zDnsSecret.refine((s) => s === undefined || /^[A-Za-z0-9+/]+={0,2}$/.test(s), { message: 'wrongFormat' }),
  ttl: zTtl,
});
const cloudflareIn = z.object({
  type: z.literal('cloudflare'),
  /** An API token with Zone:DNS:Edit on the zone (write-only). */
  apiToken: zDnsSecret,
  zone: zZone,
  ttl: zTtl,
});
const dnspodIn = z.object({
  type: z.literal('dnspod'),
  /** The DNSPod API token as `ID,Token` (write-only). */
  token: zDnsSecret.refine((s) => s === undefined || /^\d+,[A-Za-z0-9]+$/.test(s), { message: 'wrongFormat' }),
  zone: zZone,
  ttl: zTtl,
});

export const dnsSettingInSchema = z.discriminatedUnion('type', [powerDnsIn, rfc2136In, cloudflareIn, dnspodIn], {
  message: 'invalidValue',
});
export type DnsSettingIn = z.output<typeof dnsSettingInSchema>;

/** The setting as answers show it: no secrets, `hasSecret` telling whether one is stored. */
export const dnsSettingSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('powerdns'),
    apiUrl: z.string(),
    serverId: z.string(),
    zone: z.string(),
    ttl: z.number().int(),
    hasSecret: z.boolean(),
  }),
  z.object({
    type: z.literal('rfc2136'),
    server: z.string(),
    zone: z.string(),
    keyName: z.string(),
    algorithm: z.enum(TSIG_ALGORITHMS),
    ttl: z.number().int(),
    hasSecret: z.boolean(),
  }),
  z.object({ type: z.literal('cloudflare'), zone: z.string(), ttl: z.number().int(), hasSecret: z.boolean() }),
  z.object({ type: z.literal('dnspod'), zone: z.string(), ttl: z.number().int(), hasSecret: z.boolean() }),
]);
export type DnsSetting = z.infer<typeof dnsSettingSchema>;

export const dnsTestResultSchema = z.object({
  /** What was checked, e.g. `zone example.com readable, TXT probe written and removed`. */
  detail: z.string(),
});
export type DnsTestResult = z.infer<typeof dnsTestResultSchema>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getDnsSetting = route.get('client.setting.dns', '/client/setting/dns', {
  summary: "The operator's DNS provider (null until one is set); secrets are never returned",
  response: dataOf(dnsSettingSchema.nullable()),
});

export const saveDnsSetting = route.post('client.setting.dns.save', '/client/setting/dns', {
  summary:
    "Sets the operator's DNS provider and with it its dnsType; a secret left out is kept when the type is unchanged",
  body: dnsSettingInSchema,
  response: dataOf(dnsSettingSchema),
});

export const deleteDnsSetting = route.delete('client.setting.dns.delete', '/client/setting/dns', {
  summary: "Removes the operator's DNS provider; its dnsType becomes ''",
  response: dataOf(z.null()),
});

export const testDnsSetting = route.post('client.setting.dns.test', '/client/setting/dns/test', {
  codes: [101010],
  sendsOnDemand: true,
  summary:
    'Checks a DNS provider setting (the stored secret fills one left out): reads the zone, writes and removes a ' +
    'TXT probe record; 101010 with the provider’s message when it fails',
  body: dnsSettingInSchema,
  response: dataOf(dnsTestResultSchema),
});

export const dnsSettingRoutes = { getDnsSetting, saveDnsSetting, deleteDnsSetting, testDnsSetting } as const;
