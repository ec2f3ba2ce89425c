import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId } from '../validators/ids.js';
import { siteParams } from './sites.js';

/**
 * Proof of control of a domain's name, before the edge serves it.
 *
 * Every domain row is one customer's claim of its name. A claim goes live (the nodes serve it)
 * once it is proved or, where the operator does not require proof, waived:
 * - 0 pending: not proved yet; not served. Another customer may hold a pending claim of the same
 *   name at the same time (a claim of a name is not refused while nobody has proved it).
 * - 1 proved: a TXT record `_rampart-challenge.<name>` (for `*.example.com`: `_rampart-challenge.example.com`)
 *   holds the claim's token, or the name CNAMEs to the claim's own target. The first claim to prove
 *   wins: every other customer's claim of the name becomes lost, and new claims of the name by
 *   other customers are refused (401001).
 * - 2 waived: the operator does not require proof (its setting below) and no other customer's
 *   claim of the name was live; served, but a claim of another customer that proves control wins
 *   over it (it becomes lost).
 * - 3 lost: another customer proved control of the name first; never served. It can try again
 *   (verify) once that customer's proved claim is gone.
 * A customer's own further claims of a name it has proved or had waived (another site, a copy)
 * start in the same state.
 *
 * Proof is checked on demand (`PUT domains/verify`, and `checkCNAME` when the name points at its
 * target) and by a background job, through the DNS servers the control plane is configured with.
 */
export const DOMAIN_PROOF_STATUS = { pending: 0, proved: 1, waived: 2, lost: 3 } as const;
export const domainProofStatusSchema = z.literal([0, 1, 2, 3]);
export type DomainProofStatus = z.infer<typeof domainProofStatusSchema>;
/** The label of the TXT record that proves control: `_rampart-challenge.<name>`. */
export const DOMAIN_PROOF_TXT_LABEL = '_rampart-challenge';
/** Domains one verify call resolves. */
export const DOMAIN_VERIFY_MAX = 100;

/** Whether the edge serves a claim in this state (when the domain is enabled). */
export function proofIsLive(status: DomainProofStatus): boolean {
  return status === DOMAIN_PROOF_STATUS.proved || status === DOMAIN_PROOF_STATUS.waived;
}

/** The TXT record's name for a domain: a wildcard's is its parent's. */
export function proofRecordName(domainName: string): string {
  return `${DOMAIN_PROOF_TXT_LABEL}.${domainName.startsWith('*.') ? domainName.slice(2) : domainName}`;
}

export const domainProofCheckSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  proofStatus: domainProofStatusSchema,
  /** When proof was last looked for; null before the first look. */
  proofCheckedAt: z.string().nullable(),
});
export type DomainProofCheck = z.infer<typeof domainProofCheckSchema>;

export const domainProofSettingSchema = z.object({
  /** New claims of the operator's customers need proof of control before they go live. */
  required: z.boolean(),
});
export type DomainProofSetting = z.infer<typeof domainProofSettingSchema>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['user'], 'user.domains.write'),
});

export const verifyDomains = route.put('user.domains.verify', '/user/site/{siteId}/domains/verify', {
  codes: [101010],
  sendsOnDemand: true,
  summary:
    'Looks for proof of control of domains (the TXT record `_rampart-challenge.<name>` with the claim token, or the CNAME to the target) and records it; 101010 when the resolver fails, recording nothing',
  tags: ['domains'],
  params: siteParams,
  body: z.object({ domainIDs: z.array(zId).min(1).max(DOMAIN_VERIFY_MAX) }),
  response: dataOf(z.array(domainProofCheckSchema)),
});

export const getDomainProofSetting = route.get('client.setting.domainProof', '/client/setting/domainProof', {
  summary: "Whether the operator's customers must prove control of a domain before it goes live",
  response: dataOf(domainProofSettingSchema),
});

export const putDomainProofSetting = route.put('client.setting.domainProof.update', '/client/setting/domainProof', {
  access: tiers(['client'], 'client.settings.write'),
  summary:
    "Requires proof of control for the operator's customers' domains, or waives it (their pending claims then go live where no other customer's claim of the name is live)",
  body: domainProofSettingSchema,
  response: dataOf(domainProofSettingSchema),
});

export const domainProofRoutes = { verifyDomains, getDomainProofSetting, putDomainProofSetting } as const;
