import {
  type BlacklistRule,
  type BlacklistRuleIn,
  FIREWALL_LIST_RULES_PER_SITE,
  type WhitelistRule,
  type WhitelistRuleIn,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../sites/site-access.js';
import type { SitesRepository } from '../sites/sites.repository.js';
import { presentBlacklistRule, presentWhitelistRule, type StoredListRule } from './firewall-rules.presenter.js';
import type { FirewallRuleRow, FirewallRulesRepository, FirewallRuleValues } from './firewall-rules.repository.js';

/** What each list kind takes and answers. */
interface ListKinds {
  whitelist: { input: WhitelistRuleIn; output: WhitelistRule };
  blacklist: { input: BlacklistRuleIn; output: BlacklistRule };
}
export type ListKind = keyof ListKinds;

const PRESENT: { [K in ListKind]: (row: FirewallRuleRow) => ListKinds[K]['output'] } = {
  whitelist: presentWhitelistRule,
  blacklist: presentBlacklistRule,
};

function values(input: WhitelistRuleIn | BlacklistRuleIn): FirewallRuleValues {
  const rule: StoredListRule = { ips: input.ips, url: input.url, methods: input.methods };
  if ('blockType' in input) rule.blockType = input.blockType;
  return { rule: { ...rule }, memo: input.memo };
}

/**
 * The site firewall's whitelist and blacklist (routes/firewall-lists.ts). Every call starts with the
 * site check (101018 for a site that is not the caller's, before anything about a rule id is read);
 * a rule id of another site, or of the other list, answers 101018 like one that does not exist. The
 * snapshot hook in app.ts sends a change to the nodes.
 */
export class FirewallListsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: FirewallRulesRepository,
    private readonly sites: SitesRepository,
    private readonly access: SiteAccess,
  ) {}

  async list<K extends ListKind>(
    kind: K,
    userId: number,
    siteId: number,
    page: number,
    pageSize: number,
  ): Promise<{ data: ListKinds[K]['output'][]; total: number }> {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.page(siteId, kind, page, pageSize);
    return { data: rows.map(PRESENT[kind]), total };
  }

  async add<K extends ListKind>(
    kind: K,
    userId: number,
    siteId: number,
    inputs: ListKinds[K]['input'][],
  ): Promise<ListKinds[K]['output'][]> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await this.sites.lock(siteId);
      if ((await this.repo.count(siteId, kind)) + inputs.length > FIREWALL_LIST_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: FIREWALL_LIST_RULES_PER_SITE } });
      }
      return (await this.repo.insert(siteId, kind, inputs.map(values))).map(PRESENT[kind]);
    });
  }

  async update<K extends ListKind>(
    kind: K,
    userId: number,
    siteId: number,
    id: number,
    input: ListKinds[K]['input'],
  ): Promise<ListKinds[K]['output']> {
    await this.access.userSite(userId, siteId);
    const row = await this.repo.update(siteId, kind, id, values(input));
    if (!row) throw new AppError(101018);
    return PRESENT[kind](row);
  }

  /** All or none: an id that is not a rule of this list of this site refuses the whole call (101018). */
  async delete(kind: ListKind, userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.delete(siteId, kind, unique), unique);
    });
  }
}
