import {
  ACL_RULES_PER_MODULE,
  MODULES_PER_SITE_MAX,
  REDIRECT_RULES_PER_SITE,
  REWRITE_RULES_PER_MODULE,
  type SiteModuleType,
  TOKEN_AUTHS_PER_MODULE,
} from '@rampart/contract';
import { onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import { type PresentedModule, presentModule, presentRule } from './site-modules.presenter.js';
import type { ModuleRow, RuleType, SiteModulesRepository } from './site-modules.repository.js';

export type ModuleInput = { name: string } & Record<string, unknown>;
type RuleInput = Record<string, unknown>;

function settingsOf(input: ModuleInput): Record<string, unknown> {
  const { name: _name, id: _id, ...settings } = input;
  return settings;
}

function ruleOf(input: RuleInput): Record<string, unknown> {
  const { id: _id, ...rule } = input;
  return rule;
}

/** Rules per module, for the types limited per module (redirects are limited per site). */
const RULES_PER_MODULE: Record<Exclude<RuleType, 'urlRedirect'>, number> = {
  proxyRewrite: REWRITE_RULES_PER_MODULE,
  luaAcl: ACL_RULES_PER_MODULE,
  tokenAuth: TOKEN_AUTHS_PER_MODULE,
};

/** A header named twice in one direction of a custom-header module is 10102502. */
function checkDuplicateHeaders(type: SiteModuleType, settings: Record<string, unknown>) {
  if (type !== 'customHeader') return;
  const headers = (settings.headers ?? []) as { type: string; name: string }[];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const h of headers) {
    const key = `${h.type}:${h.name.toLowerCase()}`;
    if (seen.has(key)) duplicates.push(h.name);
    seen.add(key);
  }
  if (duplicates.length > 0) throw new AppError(10102502, { extra: { targets: duplicates } });
}

/**
 * Named modules of a customer's site, their rules and their bindings to the site's domains
 * (packages/contract/src/routes/site-modules.ts). Every write is one transaction; the snapshot
 * hook in app.ts sends the result to the nodes.
 */
export class SiteModulesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: SiteModulesRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
  ) {}

  private async present(rows: ModuleRow[]): Promise<PresentedModule[]> {
    const ids = rows.map((r) => r.id);
    const siteId = rows[0]?.siteId;
    if (siteId === undefined) return [];
    const [bound, counts] = await Promise.all([this.repo.boundDomains(siteId, ids), this.repo.ruleCounts(ids)]);
    return rows.map((row) => presentModule(row, bound, counts));
  }

  async list(
    userId: number,
    siteId: number,
    type: SiteModuleType,
    q: { page: number; pageSize: number; name?: string | undefined },
  ) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.list(siteId, type, q.name, q.page, q.pageSize);
    return { data: await this.present(rows), total };
  }

  /** `firewall/setting/adv/exists`: whether the site has a Lua ACL or WAF module (the product's advanced firewall). */
  async advancedExists(userId: number, siteId: number): Promise<boolean> {
    await this.access.userSite(userId, siteId);
    const [acl, waf] = await Promise.all([
      this.repo.countOfType(siteId, 'luaAcl'),
      this.repo.countOfType(siteId, 'waf'),
    ]);
    return acl + waf > 0;
  }

  async create(userId: number, siteId: number, type: SiteModuleType, inputs: ModuleInput[]) {
    await this.access.userSite(userId, siteId);
    for (const input of inputs) checkDuplicateHeaders(type, settingsOf(input));
    return onUniqueViolation(101025, () =>
      this.transactions.run(async () => {
        await this.sites.lock(siteId);
        if ((await this.repo.countOfType(siteId, type)) + inputs.length > MODULES_PER_SITE_MAX) {
          throw new AppError(101029, { extra: { max: MODULES_PER_SITE_MAX } });
        }
        const names = inputs.map((i) => i.name);
        const repeated = names.filter((n, i) => names.indexOf(n) !== i);
        const taken = [...new Set([...repeated, ...(await this.repo.namesTaken(siteId, type, names))])];
        if (taken.length > 0) throw new AppError(101025, { extra: { targets: taken } });
        const rows = await this.repo.insert(
          siteId,
          type,
          inputs.map((i) => ({ name: i.name, settings: settingsOf(i) })),
        );
        return this.present(rows);
      }),
    );
  }

  async update(userId: number, siteId: number, type: SiteModuleType, input: ModuleInput & { id: number }) {
    await this.access.userSite(userId, siteId);
    const settings = settingsOf(input);
    checkDuplicateHeaders(type, settings);
    if ((await this.repo.namesTaken(siteId, type, [input.name], input.id)).length > 0) {
      throw new AppError(101025, { extra: { targets: [input.name] } });
    }
    const row = await onUniqueViolation(101025, () => this.repo.update(siteId, type, input.id, input.name, settings));
    if (!row) throw new AppError(101018);
    const [presented] = await this.present([row]);
    return presented as PresentedModule;
  }

  /**
   * All or none: an id not of this site and type is 101018, settled before anything else about the
   * ids; a bound module is then refused (moduleInUse) naming the site's domains that use it.
   */
  async delete(userId: number, siteId: number, type: SiteModuleType, ids: number[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.findMany(siteId, type, unique), unique);
      const bound = await this.repo.boundDomains(siteId, unique);
      const first = bound[0];
      if (first) {
        throw invalidFields([
          {
            field: `ids.${ids.indexOf(first.moduleId)}`,
            key: 'moduleInUse',
            params: { domains: [...new Set(bound.map((b) => b.name))].join(', ') },
          },
        ]);
      }
      requireEvery(await this.repo.deleteMany(siteId, type, unique), unique);
    });
  }

  private async ruleModule(siteId: number, type: RuleType, moduleId: number) {
    const module = await this.repo.find(siteId, type, moduleId);
    if (!module) throw new AppError(101018);
    return module;
  }

  async listRules(
    userId: number,
    siteId: number,
    type: RuleType,
    moduleId: number,
    q: { page: number; pageSize: number; sortBy?: 'priority' | 'createdAt'; orderBy?: 'asc' | 'desc' },
  ) {
    await this.access.userSite(userId, siteId);
    await this.ruleModule(siteId, type, moduleId);
    const sort = q.sortBy ? { by: q.sortBy, order: q.orderBy ?? 'desc' } : undefined;
    const { rows, total } = await this.repo.listRules(moduleId, q.page, q.pageSize, sort);
    return { data: rows.map(presentRule), total };
  }

  /**
   * All or none: 205007 beyond 3,000 redirect rules per site, 101029 beyond the rules a module of
   * the other types may hold.
   */
  async addRules(userId: number, siteId: number, type: RuleType, moduleId: number, items: RuleInput[]) {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // The site row stays locked until the end: concurrent additions count in turn.
      await this.sites.lock(siteId);
      await this.ruleModule(siteId, type, moduleId);
      if (type === 'urlRedirect') {
        if ((await this.repo.countRules({ siteId, type })) + items.length > REDIRECT_RULES_PER_SITE) {
          throw new AppError(205007, { extra: { max: REDIRECT_RULES_PER_SITE } });
        }
      } else if ((await this.repo.countRules({ moduleId })) + items.length > RULES_PER_MODULE[type]) {
        throw new AppError(101029, { extra: { max: RULES_PER_MODULE[type] } });
      }
      const rows = await this.repo.insertRules(siteId, type, moduleId, items.map(ruleOf));
      return rows.map(presentRule);
    });
  }

  async updateRule(
    userId: number,
    siteId: number,
    type: RuleType,
    moduleId: number,
    input: RuleInput & { id: number },
  ) {
    await this.access.userSite(userId, siteId);
    await this.ruleModule(siteId, type, moduleId);
    const row = await this.repo.updateRule(moduleId, input.id, ruleOf(input));
    if (!row) throw new AppError(101018);
    return presentRule(row);
  }

  /** Turns rules of a Lua ACL module on or off; all or none (an id not of the module is 101018). */
  async enableRules(userId: number, siteId: number, type: RuleType, moduleId: number, ids: number[], enabled: boolean) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.ruleModule(siteId, type, moduleId);
      requireEvery(await this.repo.setRulesEnabled(moduleId, unique, enabled), unique);
    });
  }

  async deleteRules(userId: number, siteId: number, type: RuleType, moduleId: number, ids: number[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.ruleModule(siteId, type, moduleId);
      requireEvery(await this.repo.deleteRules(moduleId, unique), unique);
    });
  }

  /**
   * Binds module `moduleId` of this site and type to the site's domains `domainIds` (0 unbinds).
   * A domain or module that is not of this site — another customer's included — is 101018, and
   * nothing changes.
   */
  async bind(userId: number, siteId: number, type: SiteModuleType, domainIds: number[], moduleId: number) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(domainIds)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.domainIdsInSite(siteId, unique), unique);
      if (moduleId === 0) {
        await this.repo.unbind(type, unique);
        return;
      }
      if (!(await this.repo.find(siteId, type, moduleId))) throw new AppError(101018);
      await this.repo.bind(type, unique, moduleId);
    });
  }
}
