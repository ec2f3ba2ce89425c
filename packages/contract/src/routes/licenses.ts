import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zAccount, zName } from '../validators/zod.js';

/**
 * Licences (spec part 1 §2 admin `licenses`, `offlineLicense`; §7 "Admin licences" and
 * `offline/license`). The vendor (admin tier) issues licences to operators; an installation that
 * never reaches the vendor takes an offline licence: a document the vendor signed, bound to the
 * installation's id (docs/decisions.md "Licences").
 */

/** The extra of 101003 when a licence key cannot be read as a Rampart licence (spec part 1 §8). */
export const INVALID_LICENSE_KEY = 'invalid license key';

/** The most of one kind a licence may allow; 0 allows none of it. */
export const LICENSE_LIMIT_MAX = 1_000_000;
/** Days before expiry from which the operator's console warns. */
export const LICENSE_WARN_DAYS = 30;

const limit = z.number().int().min(0).max(LICENSE_LIMIT_MAX);

/** What an operator may run: counts of each kind across its whole account, and an expiry. */
export const licenseSettingSchema = z.object({
  nodes: limit,
  sites: limit,
  domains: limit,
  autoSSLDomains: limit,
  ports: limit,
  zones: limit,
  expiredAt: z.iso.datetime({ offset: true }),
});
export type LicenseSetting = z.infer<typeof licenseSettingSchema>;
export const LICENSE_KINDS = ['nodes', 'sites', 'domains', 'autoSSLDomains', 'ports', 'zones'] as const;
export type LicenseKind = (typeof LICENSE_KINDS)[number];

export const licenseSchema = z.object({
  id: z.number().int(),
  userID: z.number().int(),
  userName: z.string(),
  licenseSetting: licenseSettingSchema,
  /** Drafts limit nothing until issued; the operator's licence is the one issued last. */
  issued: z.boolean(),
  issuedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type License = z.infer<typeof licenseSchema>;

const usageSchema = z.object({ used: z.number().int(), limit: z.number().int(), left: z.number().int() });
/** An operator's licence as it applies now: what it allows, what is used and left of each kind. */
export const licenseInfoSchema = z.object({
  /** `none`: no licence, nothing is limited (docs/decisions.md "Licences"). */
  source: z.enum(['none', 'online', 'offline']),
  licenseSetting: licenseSettingSchema.nullable(),
  expired: z.boolean(),
  /** Days until expiry (negative after it); null without a licence. */
  daysLeft: z.number().int().nullable(),
  usage: z.object(
    Object.fromEntries(LICENSE_KINDS.map((k) => [k, usageSchema])) as Record<LicenseKind, typeof usageSchema>,
  ),
  /** The installation this control plane is: an offline licence must name it. */
  installID: z.string(),
  /** The operator's sign-in account: an offline licence must name it too. */
  operator: z.string(),
  /** The activated offline licence's key, else null. */
  key: z.string().nullable(),
});
export type LicenseInfo = z.infer<typeof licenseInfoSchema>;

export const offlineLicenseSchema = z.object({
  id: z.number().int(),
  customer: z.string(),
  installID: z.string(),
  /**
   * The sign-in account of the operator on that installation the licence is for: the document
   * names it, and no other operator of the installation can activate it ('' on a record made
   * before licences named their operator; it must be set before it is issued again).
   */
  operator: z.string(),
  licenseSetting: licenseSettingSchema,
  /** The signed document, once issued; null before and after its registration is removed. */
  key: z.string().nullable(),
  issuedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OfflineLicense = z.infer<typeof offlineLicenseSchema>;

const adminRead = tiers(['admin'], 'admin.licenses.read');
const adminWrite = tiers(['admin'], 'admin.licenses.write');
const userParams = z.object({ userId: zIdParam });
/** An installation's id: what `client/license` shows as installID (a UUID). */
const zInstallId = z.string().trim().uuid();

const route = routeFamily({ tags: ['licenses'], read: adminRead, write: adminWrite });

export const listLicenses = route.get('admin.licenses.list', '/admin/license', {
  summary: 'The online licences of every operator, newest first',
  query: pageQuery,
  response: pageOf(licenseSchema),
});

export const createLicense = route.post('admin.license.create', '/admin/license', {
  summary: 'Drafts a licence for an operator (it limits nothing until issued)',
  body: z.object({ userID: zId, licenseSetting: licenseSettingSchema }),
  response: dataOf(licenseSchema),
});

export const updateLicense = route.put('admin.license.update', '/admin/license', {
  codes: [101022],
  summary: "Changes a licence's settings (an issued one applies at once)",
  body: z.object({ id: zId, licenseSetting: licenseSettingSchema }),
  response: dataOf(licenseSchema),
});

export const deleteLicenses = route.delete('admin.license.delete', '/admin/license', {
  codes: [101022],
  summary: 'Deletes licences; an operator whose licence goes falls back to the one issued before it',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const issueLicense = route.post('admin.license.issue', '/admin/license/issuing', {
  codes: [101022],
  summary: "Issues a licence: it becomes its operator's licence",
  body: z.object({ id: zId }),
  response: dataOf(licenseSchema),
});

export const getLicenseOrder = route.get('admin.license.order.get', '/admin/license/{userId}/order', {
  summary: "An operator's licence as it applies now, with what it uses",
  params: userParams,
  response: dataOf(licenseInfoSchema),
});

export const putLicenseOrder = route.put('admin.license.order.put', '/admin/license/{userId}/order', {
  summary: "Sets an operator's licence in one step (issues a licence with these settings)",
  params: userParams,
  body: z.object({ licenseSetting: licenseSettingSchema }),
  response: dataOf(licenseInfoSchema),
});

export const listOfflineLicenses = route.get('admin.license.offlines', '/admin/license/offlines', {
  summary: 'The offline licences this vendor made, newest first',
  query: pageQuery,
  response: pageOf(offlineLicenseSchema),
});

const offlineBody = z.object({
  customer: zName,
  installID: zInstallId,
  operator: zAccount,
  licenseSetting: licenseSettingSchema,
});

export const putOfflineLicense = route.put('admin.license.offline.put', '/admin/license/offline', {
  codes: [101022],
  summary: 'Creates (no id) or edits an offline licence; an edit takes back its issued key',
  body: offlineBody.extend({ id: zId.optional() }),
  response: dataOf(offlineLicenseSchema),
});

export const deleteOfflineLicenses = route.delete('admin.license.offline.delete', '/admin/license/offline', {
  codes: [101022],
  summary: 'Deletes offline licences',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const issueOfflineLicense = route.post('admin.license.offline.issue', '/admin/license/offline/issuing', {
  codes: [101022, 101024],
  summary:
    "Signs an offline licence for its installation and operator: the reply's key is what the operator enters; 101003 (operator) for a record that names none",
  body: z.object({ id: zId }),
  response: dataOf(offlineLicenseSchema),
});

export const unregisterOfflineLicense = route.delete(
  'admin.license.offline.unregister',
  '/admin/license/offline/register',
  {
    codes: [101022],
    summary: "Takes back an offline licence's issued key, so it can be issued again (to a new install id)",
    body: z.object({ id: zId }),
    response: dataOf(offlineLicenseSchema),
  },
);

export const getOwnLicense = route.get('client.license.get', '/client/license', {
  access: tiers(['client'], 'client.license.read'),
  summary: "The operator's licence: what it allows, what is used and left, and this installation's id",
  response: dataOf(licenseInfoSchema),
});

const keyQuery = z.object({ key: z.string().trim().min(1).max(20_000) });

export const activateOfflineLicense = route.put('client.offlineLicense.activate', '/offline/license', {
  access: tiers(['client'], 'client.license.write'),
  codes: [101019, 900001],
  summary:
    'Activates an offline licence on this installation, checked without any network; 900001 for a licence of another installation or another operator',
  query: keyQuery,
  response: dataOf(licenseInfoSchema),
});

export const updateOfflineLicenseKey = route.put('client.offlineLicense.updateKey', '/offline/license/updateKey', {
  access: tiers(['client'], 'client.license.write'),
  codes: [101019, 101022, 900001],
  summary: 'Replaces the activated offline licence with a new key (a renewal)',
  query: keyQuery,
  response: dataOf(licenseInfoSchema),
});

export const licenseRoutes = {
  listLicenses,
  createLicense,
  updateLicense,
  deleteLicenses,
  issueLicense,
  getLicenseOrder,
  putLicenseOrder,
  listOfflineLicenses,
  putOfflineLicense,
  deleteOfflineLicenses,
  issueOfflineLicense,
  unregisterOfflineLicense,
  getOwnLicense,
  activateOfflineLicense,
  updateOfflineLicenseKey,
};
