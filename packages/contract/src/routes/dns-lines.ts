import { z } from 'zod';
import type { Localized } from '../locale.js';
import { dataOf, defineRoute, tiers } from '../route.js';

/**
 * DNS resolution lines (spec part 2 §7 "Zones and groups"): where the authoritative DNS answers a
 * resolver with the nodes and virtual nodes placed on that line of a group. A fixed catalogue with
 * stable ids: `default` (every resolver no other line matches) plus the carrier and region lines
 * Chinese authoritative DNS providers offer. Ids are stored with every placement, so they never
 * change; new lines may be appended.
 */
export const DNS_LINES = [
  { id: 'default', name: { en_US: 'Default', zh_CN: '默认', zh_TW: '預設' } },
  { id: 'telecom', name: { en_US: 'China Telecom', zh_CN: '电信', zh_TW: '電信' } },
  { id: 'unicom', name: { en_US: 'China Unicom', zh_CN: '联通', zh_TW: '聯通' } },
  { id: 'mobile', name: { en_US: 'China Mobile', zh_CN: '移动', zh_TW: '移動' } },
  { id: 'cernet', name: { en_US: 'CERNET (education network)', zh_CN: '教育网', zh_TW: '教育網' } },
  { id: 'tietong', name: { en_US: 'China Tietong', zh_CN: '铁通', zh_TW: '鐵通' } },
  { id: 'broadnet', name: { en_US: 'China Broadnet', zh_CN: '广电网', zh_TW: '廣電網' } },
  { id: 'drpeng', name: { en_US: 'Dr. Peng', zh_CN: '鹏博士', zh_TW: '鵬博士' } },
  { id: 'mainland', name: { en_US: 'Mainland China', zh_CN: '境内', zh_TW: '境內' } },
  { id: 'overseas', name: { en_US: 'Overseas', zh_CN: '境外', zh_TW: '境外' } },
  { id: 'search_engine', name: { en_US: 'Search engines', zh_CN: '搜索引擎', zh_TW: '搜尋引擎' } },
] as const satisfies readonly { id: string; name: Localized }[];

export type DnsLineId = (typeof DNS_LINES)[number]['id'];
export const DNS_LINE_IDS = DNS_LINES.map((line) => line.id) as [DnsLineId, ...DnsLineId[]];
export const DEFAULT_LINE: DnsLineId = 'default';
/** A line id of the catalogue; anything else is 101003 (`invalidValue`) on the field that carried it. */
export const lineIdSchema = z.enum(DNS_LINE_IDS);

export const dnsLineSchema = z.object({ id: lineIdSchema, name: z.string() });
export type DnsLine = z.infer<typeof dnsLineSchema>;

export const listDnsLines = defineRoute({
  id: 'client.dns.lines',
  method: 'GET',
  path: '/client/dns/lines',
  access: tiers(['client'], 'client.zones.read'),
  codes: [],
  summary:
    'The DNS lines nodes and virtual nodes can be placed on, named in the language of the `language` ' +
    'header (en_US, zh_CN, zh_TW), else of Accept-Language, else zh_TW',
  tags: ['zones'],
  request: {},
  response: dataOf(z.array(dnsLineSchema)),
});

export const dnsLineRoutes = { listDnsLines } as const;
