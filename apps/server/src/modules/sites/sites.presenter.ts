import type { OperatorSite, Site } from '@rampart/contract';
import type { SiteView } from '../../platform/tenancy/site-access.repository.js';

export function presentSite(row: SiteView): Site {
  return {
    siteID: row.id,
    siteName: row.name,
    status: row.status,
    tags: row.tags,
    productID: row.productId,
    productName: row.productName,
    userID: row.userId,
    userAccount: row.userAccount,
    expiredAt: row.expiresAt?.toISOString() ?? null,
    forceBackup: row.forceBackup,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The operator's view adds what the customer does not see: the memo, the limits and the usage. */
export function presentOperatorSite(row: SiteView): OperatorSite {
  return {
    ...presentSite(row),
    memo: row.memo,
    limitations: { maxDomains: row.maxDomains, maxPorts: row.maxPorts },
    domainCount: row.domainCount,
  };
}
