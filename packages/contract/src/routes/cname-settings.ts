import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zDomainName } from '../validators/zod.js';

/**
 * The operator's CNAME domain (spec part 2 §7 "System settings": `client/setting/dns/cname`). Each
 * customer domain of the operator's sites gets the CNAME target `<label>.<CNAME domain>` (see
 * domains.ts); the operator serves that zone (a wildcard record towards its edge, or a virtual node).
 *
 * Open points decided here (`dns/cnames` and `cname/meta` of the spec, the lists of the CNAME
 * records published, are in dns-cnames.ts):
 * - One CNAME domain per operator, stored per operator; another operator never sees or changes it.
 * - Until the operator sets one, the default is `cname.<host of PUBLIC_URL>` when that host is a DNS
 *   name with a dot (the install's own domain), else `cname.rampart.invalid` (RFC 2606: a name that
 *   never resolves, so no customer's check passes before the operator has chosen).
 * - Setting '' goes back to the default. A change resets the CNAME status of the operator's
 *   domains to "not checked", since they were checked against the old targets.
 */

/** The CNAME domain of an operator who has set none on an install whose PUBLIC_URL names no DNS domain. */
export const PLACEHOLDER_CNAME_DOMAIN = 'cname.rampart.invalid';

/**
 * Whether a CNAME target is a placeholder no DNS name can point at: any name under `.invalid`
 * (RFC 2606), so the consoles say so instead of offering it to be copied into a DNS record.
 */
export function isPlaceholderCnameTarget(target: string): boolean {
  return /(^|\.)invalid\.?$/i.test(target);
}

export const cnameSettingSchema = z.object({
  /** The CNAME domain in use (the operator's, else the default). */
  domain: z.string(),
  /** What the installation would use without the operator's setting. */
  defaultDomain: z.string(),
  /** Whether the operator has set its own. */
  custom: z.boolean(),
});
export type CnameSetting = z.infer<typeof cnameSettingSchema>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getCnameSetting = route.get('client.setting.cname', '/client/setting/dns/cname', {
  summary: "The operator's CNAME domain, under which its customers' domains get their CNAME targets",
  response: dataOf(cnameSettingSchema),
});

export const putCnameSetting = route.put('client.setting.cname.update', '/client/setting/dns/cname', {
  summary: "Sets the operator's CNAME domain ('' = the default); its domains' CNAME statuses go back to not checked",
  body: z.object({ domain: z.union([z.literal(''), zDomainName()]) }),
  response: dataOf(cnameSettingSchema),
});

export const cnameSettingRoutes = { getCnameSetting, putCnameSetting } as const;
