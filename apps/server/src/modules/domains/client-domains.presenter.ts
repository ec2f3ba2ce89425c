import type { ClientDomain } from '@rampart/contract';
import type { ClientDomainRow } from './client-domains.repository.js';

export function presentClientDomain(row: ClientDomainRow): ClientDomain {
  return {
    id: row.id,
    name: row.name,
    siteID: row.siteId,
    siteName: row.siteName,
    userAccount: row.userAccount,
    status: row.enabled ? 1 : 0,
    tags: row.tags,
    createdAt: row.createdAt.toISOString(),
  };
}
