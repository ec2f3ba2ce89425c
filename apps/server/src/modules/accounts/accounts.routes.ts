import { accountRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { NodesService } from '../nodes/nodes.service.js';

/** The operator's customers, for picking the owner of a new site. */
export function bindAccountRoutes(binder: Binder, accounts: AccountsRepository, nodes: NodesService): void {
  binder.bind(accountRoutes.listClientAccounts, async ({ query }, { caller }) => {
    const operatorId = await nodes.operatorOf(requireCaller(caller).accountId);
    const { rows, total } = await accounts.listBelow(operatorId, 'user', query.name, query.page, query.pageSize);
    return {
      data: rows.map((a) => ({
        id: a.id,
        account: a.account,
        name: a.name,
        email: a.email,
        status: a.status,
        createdAt: a.createdAt.toISOString(),
      })),
      total,
    };
  });
}
