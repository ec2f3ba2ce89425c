import { createGroup, createProduct, createSite, createZone, listAccounts } from '@rampart/contract';
import { api } from './api.js';

/** Names of what {@link customerSite} arranges around the site (default: short unique ones). */
export interface SiteSetup {
  zoneName?: string;
  groupName?: string;
  productName?: string;
  /** The group's and product's port type: 7 (sites with domains, the default) or 4 (layer-4 ports). */
  portType?: 4 | 7;
}

/**
 * A site of the customer `account` (default: the root customer `user`), arranged on the operator's
 * side through the API: a fresh zone with a layer-7 group, a product on it, and the site on that product.
 */
export async function customerSite(
  siteName: string,
  account = 'user',
  names: SiteSetup = {},
): Promise<{ siteID: number; zoneID: number; groupID: number }> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const zone = await api('client', createZone, { body: { name: names.zoneName ?? `e2e-${stamp}` } });
  const group = await api('client', createGroup, {
    params: { zoneID: zone.id },
    body: {
      name: names.groupName ?? 'web',
      portType: names.portType ?? 7,
    },
  });
  const product = await api('client', createProduct, {
    body: {
      name: names.productName ?? `e2e-product-${stamp}`,
      portType: names.portType ?? 7,
      mainGroupIDs: [group.id],
    },
  });
  // The search matches parts of account, name and e-mail: pick the account itself.
  const found = await api('client', listAccounts, {
    params: { auth: 'client' },
    query: { auth: 'user', pageSize: 100, name: account },
  });
  const customer = found.find((candidate) => candidate.account === account);
  if (!customer) throw new Error(`no customer ${account}`);
  const site = await api('client', createSite, {
    body: {
      siteName,
      userID: customer.id,
      productID: product.id,
    },
  });
  return { siteID: site.siteID, zoneID: zone.id, groupID: group.id };
}

/** A name unique to this run, for domains and certificates that the whole control plane keeps apart. */
export function uniqueLabel(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}
