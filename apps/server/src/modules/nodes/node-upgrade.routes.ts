import { nodeUpgradeRoutes as routes } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AgentReleases } from './agent-releases.js';
import type { NodeUpgradeService } from './node-upgrade.service.js';

/** Node upgrade: the operator's calls and the release and progress calls of the node API. */
export function bindNodeUpgradeRoutes(binder: Binder, upgrades: NodeUpgradeService, releases: AgentReleases): void {
  binder.bind(routes.getLatestNodeVersion, async () => ({ data: await upgrades.latest() }));
  binder.bind(routes.upgradeNodes, async ({ body }, { caller }) => ({
    data: await upgrades.upgrade(caller.operatorId, body.ids),
  }));
  binder.bind(routes.listNodeUpgradeLogs, async ({ params, query }, { caller }) =>
    upgrades.logs(caller.operatorId, params.id, query.page, query.pageSize),
  );

  binder.bind(routes.getNodeRelease, async () => {
    const manifest = await releases.manifest();
    if (!manifest) throw new AppError(202008, { extra: { reason: 'no agent release of this version to serve' } });
    return { data: manifest };
  });
  binder.bind(routes.getNodeReleaseFile, async ({ query }, { reply }) => {
    const bytes = await releases.file(query.version, query.path);
    if (!bytes) throw new AppError(101018);
    reply.header('cache-control', 'no-store').type('application/octet-stream').send(bytes);
    return '';
  });
  binder.bind(routes.reportNodeUpgradeProgress, async ({ body }, { node }) => {
    await upgrades.progress(node.nodeId, body);
  });
}
