import type { AccountZones } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller, ClientCaller } from '../../platform/http/bind-route.js';
import { requireManaged } from '../../platform/tenancy/account-chain.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { AccountZonesRepository } from './account-zones.repository.js';

/** `GET/PUT client/{clientId}/zones` (contract routes/account-zones.ts). */
export class AccountZonesService {
  constructor(
    private readonly repo: AccountZonesRepository,
    private readonly accounts: AccountsRepository,
    private readonly transactions: Transactions,
  ) {}

  /** A sub-account of the caller's tier (an operator's sub-account) that the caller manages. */
  private async target(caller: Caller, clientId: number) {
    const target = await requireManaged(this.accounts, caller, clientId);
    if (target.tier !== 'client') throw new AppError(101018);
    return target;
  }

  private async present(accountId: number, restricted: boolean): Promise<AccountZones> {
    const zones = restricted ? await this.repo.assigned(accountId) : [];
    return { restricted, zoneIDs: zones.map((z) => z.id), zones };
  }

  async get(caller: Caller, clientId: number): Promise<AccountZones> {
    const target = await this.target(caller, clientId);
    return this.present(target.id, target.zonesRestricted);
  }

  /**
   * Every id must be a zone of the operator the caller may itself work on: a restricted caller
   * cannot hand out zones it does not have (and its own restriction still applies below it).
   */
  async set(caller: ClientCaller, clientId: number, zoneIds: number[]): Promise<AccountZones> {
    const target = await this.target(caller, clientId);
    const owned = new Set(await this.repo.ownedZones(caller.operatorId, zoneIds));
    const refused = zoneIds.filter((id) => !owned.has(id) || (caller.zoneScope !== null && !caller.zoneScope.has(id)));
    if (refused.length > 0) throw new AppError(101018, { extra: { zoneIDs: refused } });
    const sorted = [...zoneIds].sort((a, b) => a - b);
    await this.transactions.run(() => this.repo.replace(target.id, sorted));
    return this.present(target.id, sorted.length > 0);
  }
}
