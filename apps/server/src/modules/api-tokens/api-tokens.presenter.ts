import type { ApiToken } from '@rampart/contract';
import type { ApiTokenRow } from './api-tokens.repository.js';

/** What the API shows of a token: never its secret or hash. */
export function presentApiToken(row: ApiTokenRow, revokedAt: Date | null): ApiToken {
  return {
    id: row.id,
    name: row.name,
    lifetime: row.lifetimeS,
    permissions: row.permissions ? [...row.permissions].sort() : null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: revokedAt?.toISOString() ?? null,
  };
}
