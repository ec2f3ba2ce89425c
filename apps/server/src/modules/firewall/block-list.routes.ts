import { blockListRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { BlockListService } from './block-list.service.js';

export function bindBlockListRoutes(binder: Binder, blocks: BlockListService): void {
  binder.bind(r.listBlockedIps, async ({ query }, { caller }) => blocks.listOfUser(caller.accountId, query));
  binder.bind(r.unblockIps, async ({ body }, { caller }) => {
    await blocks.unblockOfUser(caller.accountId, body.ids);
  });
  binder.bind(r.listClientBlockedIps, async ({ query }, { caller }) => blocks.list(caller, query));
  binder.bind(r.clientUnblockIps, async ({ body }, { caller }) => {
    await blocks.unblock(caller, body.ids);
  });
  binder.bind(r.reportNodeBlocks, async ({ body }, { node }) => {
    await blocks.report(node.nodeId, body.entries);
  });
}
