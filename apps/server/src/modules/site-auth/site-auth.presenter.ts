import type { AuthGroup, AuthRule, BasicAuth, JwtAlg, JwtAuth, KeyAuth } from '@rampart/contract';
import type { AuthCredentialRow, AuthGroupRow, AuthRuleRow } from './site-auth.repository.js';

/** What a credential row's `data` holds per kind (site-auth.service.ts writes it). */
export interface BasicData {
  passwordSalt: string;
  passwordHash: string;
}
export interface KeyData {
  location: 'header' | 'query';
  param: string;
  key: string;
}
export interface JwtData {
  alg: JwtAlg;
  /** HS256: the secret sealed with the secret box; null otherwise. */
  secretSealed: string | null;
  publicKey: string;
  issuer: string;
  audience: string;
  leeway: number;
  /** Absent on credentials stored before the switch existed: they accepted tokens without `exp`. */
  requireExp?: boolean;
}

export type GroupCounts = {
  credentials: { groupId: number; kind: string; n: number }[];
  rules: { groupId: number; n: number }[];
};

export function presentGroup(row: AuthGroupRow, counts: GroupCounts): AuthGroup {
  const of = (kind: string) => counts.credentials.find((c) => c.groupId === row.id && c.kind === kind)?.n ?? 0;
  return {
    id: row.id,
    siteID: row.siteId,
    name: row.name,
    remark: row.remark,
    basicCount: of('basic'),
    keyCount: of('key'),
    jwtCount: of('jwt'),
    ruleCount: counts.rules.find((r) => r.groupId === row.id)?.n ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentRule(row: AuthRuleRow, groupName: string): AuthRule {
  return {
    id: row.id,
    siteID: row.siteId,
    name: row.name,
    groupID: row.groupId,
    groupName,
    match: row.match,
    path: row.path,
    domainIDs: row.domainIds,
    priority: row.priority,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const times = (row: AuthCredentialRow) => ({
  id: row.id,
  groupID: row.groupId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Never the password's hash. */
export function presentBasic(row: AuthCredentialRow): BasicAuth {
  return { ...times(row), username: row.name };
}

export function presentKey(row: AuthCredentialRow): KeyAuth {
  const d = row.data as unknown as KeyData;
  return { ...times(row), name: row.name, location: d.location, param: d.param, key: d.key };
}

/** Never the HS256 secret: only whether there is one. */
export function presentJwt(row: AuthCredentialRow): JwtAuth {
  const d = row.data as unknown as JwtData;
  return {
    ...times(row),
    name: row.name,
    alg: d.alg,
    hasSecret: d.secretSealed !== null,
    publicKey: d.publicKey,
    issuer: d.issuer,
    audience: d.audience,
    leeway: d.leeway,
    requireExp: d.requireExp ?? false,
  };
}
