import { createHmac, createPublicKey, randomBytes } from 'node:crypto';
import {
  AUTH_CREDENTIALS_PER_GROUP,
  AUTH_GROUPS_PER_SITE,
  AUTH_RULES_PER_SITE,
  type AuthKind,
  type AuthRuleInput,
  type JwtAuthInput,
} from '@rampart/contract';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import {
  type BasicData,
  type JwtData,
  type KeyData,
  presentBasic,
  presentGroup,
  presentJwt,
  presentKey,
  presentRule,
} from './site-auth.presenter.js';
import type { AuthCredentialRow, AuthGroupRow, SiteAuthRepository } from './site-auth.repository.js';

type Page = { page: number; pageSize: number };

/** The edge's check of a basic password (contract BASIC_AUTH_HASH; docs/decisions.md "Auth groups"). */
export function basicPasswordHash(saltHex: string, password: string): string {
  return createHmac('sha256', Buffer.from(saltHex, 'hex')).update(password, 'utf8').digest('hex');
}

function basicData(password: string): BasicData {
  const passwordSalt = randomBytes(16).toString('hex');
  return { passwordSalt, passwordHash: basicPasswordHash(passwordSalt, password) };
}

/** An RS256 key is RSA of 2048 bits or more; an ES256 key is EC on P-256. */
function publicKeyFits(alg: 'RS256' | 'ES256', pem: string): boolean {
  try {
    const key = createPublicKey({ key: pem, format: 'pem' });
    const details = key.asymmetricKeyDetails ?? {};
    if (alg === 'RS256') return key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048;
    return key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/**
 * A site's auth groups, their basic/key/JWT credentials and the URL rules that bind them
 * (packages/contract/src/routes/site-auth.ts). Ownership of the site first, then the group; an id of
 * another site answers 101018 like one that does not exist. The snapshot hook in app.ts sends the
 * result to the nodes (site-auth.edge.ts).
 */
export class SiteAuthService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: SiteAuthRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
    private readonly box: SecretBox,
  ) {}

  async settingExists(userId: number, siteId: number): Promise<boolean> {
    await this.access.userSite(userId, siteId);
    return this.repo.hasAny(siteId);
  }

  async metaGroups(userId: number, siteId: number, kind: AuthKind | undefined) {
    await this.access.userSite(userId, siteId);
    return this.repo.metaGroups(siteId, kind);
  }

  private async presentGroups(rows: AuthGroupRow[]) {
    const counts = await this.repo.groupCounts(rows.map((r) => r.id));
    return rows.map((r) => presentGroup(r, counts));
  }

  async listGroups(userId: number, siteId: number, q: Page & { name: string }) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.listGroups(siteId, q.name, q.page, q.pageSize);
    return { data: await this.presentGroups(rows), total };
  }

  async createGroup(userId: number, siteId: number, input: { name: string; remark: string }) {
    await this.access.userSite(userId, siteId);
    return onUniqueViolation(101025, () =>
      this.transactions.run(async () => {
        await this.sites.lock(siteId);
        if ((await this.repo.countGroups(siteId)) >= AUTH_GROUPS_PER_SITE) {
          throw new AppError(101029, { extra: { max: AUTH_GROUPS_PER_SITE } });
        }
        if (await this.repo.groupNameTaken(siteId, input.name)) {
          throw new AppError(101025, { extra: { targets: [input.name] } });
        }
        const [group] = await this.presentGroups([await this.repo.insertGroup(siteId, input.name, input.remark)]);
        return group as NonNullable<typeof group>;
      }),
    );
  }

  async updateGroup(userId: number, siteId: number, input: { id: number; name: string; remark: string }) {
    await this.access.userSite(userId, siteId);
    await this.group(siteId, input.id);
    if (await this.repo.groupNameTaken(siteId, input.name, input.id)) {
      throw new AppError(101025, { extra: { targets: [input.name] } });
    }
    const row = await onUniqueViolation(101025, () =>
      this.repo.updateGroup(siteId, input.id, input.name, input.remark),
    );
    if (!row) throw new AppError(101018);
    const [group] = await this.presentGroups([row]);
    return group as NonNullable<typeof group>;
  }

  /** All or none: an id not of the site is 101018; a group a rule uses is 701001, naming the rules. */
  async deleteGroups(userId: number, siteId: number, ids: number[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.sites.lock(siteId);
      requireEvery(await this.repo.groupsByIds(siteId, unique), unique);
      const used = await this.repo.groupsInUse(unique);
      if (used.length > 0) {
        throw new AppError(701001, { extra: { targets: [...new Set(used.map((u) => u.rule))] } });
      }
      requireEvery(await this.repo.deleteGroups(siteId, unique), unique);
    });
  }

  private async group(siteId: number, groupId: number): Promise<AuthGroupRow> {
    const row = await this.repo.findGroup(siteId, groupId);
    if (!row) throw new AppError(101018);
    return row;
  }

  // Rules

  async listRules(userId: number, siteId: number, q: Page) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.listRules(siteId, q.page, q.pageSize);
    return { data: rows.map((r) => presentRule(r.rule, r.groupName)), total };
  }

  /** The rule's group and domains must be the site's (101018 otherwise, like a missing id). */
  private async ruleValues(siteId: number, input: AuthRuleInput) {
    await this.group(siteId, input.groupID);
    requireEvery(await this.repo.domainIdsInSite(siteId, input.domainIDs), input.domainIDs);
    return {
      name: input.name,
      groupId: input.groupID,
      match: input.match,
      path: input.path,
      domainIds: input.domainIDs,
      priority: input.priority,
      enabled: input.enabled,
    };
  }

  private async rule(siteId: number, id: number) {
    const found = await this.repo.findRule(siteId, id);
    if (!found) throw new AppError(101018);
    return presentRule(found.rule, found.groupName);
  }

  async createRule(userId: number, siteId: number, input: AuthRuleInput) {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      await this.sites.lock(siteId);
      if ((await this.repo.countRules(siteId)) >= AUTH_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: AUTH_RULES_PER_SITE } });
      }
      const id = await this.repo.insertRule(siteId, await this.ruleValues(siteId, input));
      return this.rule(siteId, id);
    });
  }

  async updateRule(userId: number, siteId: number, input: AuthRuleInput & { id: number }) {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // Locked like a group's deletion, so a rule never lands on a group deleted beside it.
      await this.sites.lock(siteId);
      await this.rule(siteId, input.id);
      if (!(await this.repo.updateRule(siteId, input.id, await this.ruleValues(siteId, input)))) {
        throw new AppError(101018);
      }
      return this.rule(siteId, input.id);
    });
  }

  async deleteRules(userId: number, siteId: number, ids: number[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.deleteRules(siteId, unique), unique);
    });
  }

  // Credentials

  private async credentialGroup(userId: number, siteId: number, groupId: number) {
    await this.access.userSite(userId, siteId);
    return this.group(siteId, groupId);
  }

  async listCredentials(userId: number, siteId: number, groupId: number, kind: AuthKind, q: Page) {
    await this.credentialGroup(userId, siteId, groupId);
    const { rows, total } = await this.repo.listCredentials(groupId, kind, q.page, q.pageSize);
    const present = { basic: presentBasic, key: presentKey, jwt: presentJwt }[kind];
    return { data: rows.map((r) => present(r)), total };
  }

  async deleteCredentials(userId: number, siteId: number, groupId: number, kind: AuthKind, ids: number[]) {
    await this.credentialGroup(userId, siteId, groupId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.deleteCredentials(groupId, kind, unique), unique);
    });
  }

  /** Adds (id absent) or replaces a credential: 101025 for a name taken in the group and kind. */
  private async save(
    siteId: number,
    groupId: number,
    kind: AuthKind,
    name: string,
    data: (old: AuthCredentialRow | undefined) => Record<string, unknown>,
    id?: number,
  ): Promise<AuthCredentialRow> {
    return onUniqueViolation(101025, () =>
      this.transactions.run(async () => {
        await this.sites.lock(siteId);
        const old = id === undefined ? undefined : await this.repo.findCredential(groupId, kind, id);
        if (id !== undefined && !old) throw new AppError(101018);
        if (id === undefined && (await this.repo.countCredentials(groupId, kind)) >= AUTH_CREDENTIALS_PER_GROUP) {
          throw new AppError(101029, { extra: { max: AUTH_CREDENTIALS_PER_GROUP } });
        }
        if (await this.repo.credentialNameTaken(groupId, kind, name, id)) {
          throw new AppError(101025, { extra: { targets: [name] } });
        }
        const row =
          id === undefined
            ? await this.repo.insertCredential(groupId, kind, name, data(old))
            : await this.repo.updateCredential(groupId, kind, id, name, data(old));
        if (!row) throw new AppError(101018);
        return row;
      }),
    );
  }

  async saveBasic(
    userId: number,
    siteId: number,
    groupId: number,
    input: { id?: number; username: string; password: string },
  ) {
    await this.credentialGroup(userId, siteId, groupId);
    const row = await this.save(
      siteId,
      groupId,
      'basic',
      input.username,
      // An update with an empty password keeps the old one.
      (old) => (input.password === '' && old ? old.data : { ...basicData(input.password) }),
      input.id,
    );
    return presentBasic(row);
  }

  async saveKey(
    userId: number,
    siteId: number,
    groupId: number,
    input: { id?: number; name: string; location: 'header' | 'query'; param: string; key: string },
  ) {
    await this.credentialGroup(userId, siteId, groupId);
    const data: KeyData = { location: input.location, param: input.param, key: input.key };
    return presentKey(await this.save(siteId, groupId, 'key', input.name, () => ({ ...data }), input.id));
  }

  async saveJwt(userId: number, siteId: number, groupId: number, input: JwtAuthInput & { id?: number }) {
    await this.credentialGroup(userId, siteId, groupId);
    if (input.alg !== 'HS256' && !publicKeyFits(input.alg, input.publicKey)) {
      throw invalidFields([{ field: 'publicKey', key: 'wrongFormat' }]);
    }
    const row = await this.save(
      siteId,
      groupId,
      'jwt',
      input.name,
      (old) => {
        const previous = old?.data as JwtData | undefined;
        let secretSealed: string | null = null;
        if (input.alg === 'HS256') {
          secretSealed = input.secret !== '' ? this.box.seal(input.secret) : (previous?.secretSealed ?? null);
          // An update that switches to HS256 needs the secret.
          if (secretSealed === null) throw invalidFields([{ field: 'secret', key: 'required' }]);
        }
        const data: JwtData = {
          alg: input.alg,
          secretSealed,
          publicKey: input.alg === 'HS256' ? '' : input.publicKey,
          issuer: input.issuer,
          audience: input.audience,
          leeway: input.leeway,
          requireExp: input.requireExp,
        };
        return { ...data };
      },
      input.id,
    );
    return presentJwt(row);
  }
}
