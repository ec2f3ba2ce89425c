import { noChallenge } from '@rampart/contract';
import { PrivateOriginsService } from '../modules/domains/private-origins.service.js';
import { bindBlockListRoutes } from '../modules/firewall/block-list.routes.js';
import { BlockListService } from '../modules/firewall/block-list.service.js';
import { edgeChallengeKeys, firewallsChallenge } from '../modules/firewall/challenge.edge.js';
import { edgeDomainAccess } from '../modules/firewall/domain-access.edge.js';
import { edgeFirewalls } from '../modules/firewall/firewall.edge.js';
import { edgeL4 } from '../modules/firewall/firewall-l4.edge.js';
import { AbuseIPsService } from '../modules/firewall/reputation.service.js';
import { bindGeoDatabaseRoutes } from '../modules/geo/geo-database.routes.js';
import { GeoDatabaseService } from '../modules/geo/geo-database.service.js';
import { importLegacyGeoFiles } from '../modules/geo/geo-database-import.js';
import { MonitorStatusService } from '../modules/monitoring/monitor-status.service.js';
import { AgentReleases } from '../modules/nodes/agent-releases.js';
import { InstallScript } from '../modules/nodes/install-script.js';
import { NodeCommandsService } from '../modules/nodes/node-commands.service.js';
import { bindNodeInstallRoutes } from '../modules/nodes/node-install.routes.js';
import { bindNodeOperationRoutes } from '../modules/nodes/node-operations.routes.js';
import { NodeSettingsService } from '../modules/nodes/node-settings.service.js';
import { bindNodeUpgradeRoutes } from '../modules/nodes/node-upgrade.routes.js';
import { NodeUpgradeService } from '../modules/nodes/node-upgrade.service.js';
import { bindNodeRoutes } from '../modules/nodes/nodes.routes.js';
import { NodesService } from '../modules/nodes/nodes.service.js';
import { edgeDomainAuth } from '../modules/site-auth/site-auth.edge.js';
import { edgeModulesOf } from '../modules/site-modules/site-modules.edge.js';
import { edgeStreamPorts } from '../modules/site-ports/site-ports.edge.js';
import { edgeSiteSettings } from '../modules/site-settings/site-settings.edge.js';
import { edgeCachePolicies } from '../modules/sites/site-cache.edge.js';
import { PlaneService } from '../modules/snapshots/plane.service.js';
import { PlaneEntryBuilder } from '../modules/snapshots/plane-entries.js';
import { SnapshotBuilder } from '../modules/snapshots/snapshot-builder.js';
import { SnapshotsService } from '../modules/snapshots/snapshots.service.js';
import { bindSubNodeRoutes } from '../modules/sub-nodes/sub-nodes.routes.js';
import { SubNodesService } from '../modules/sub-nodes/sub-nodes.service.js';
import { NodeExporterService } from '../modules/system/node-exporter.service.js';
import { withTrafficThrottle } from '../modules/traffic/traffic.edge.js';
import { operatorNginxTuning } from '../modules/zones/operator-nginx.edge.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * The nodes and what they serve: node records and their API (snapshots, commands, status, probes'
 * states), sub-nodes, node operations and upgrades. A feature that puts something into a node's data
 * plane adds its `*.edge.ts` projection to the snapshot builder here.
 */
export function composeEdge(ctx: AppContext, binder: Binder) {
  const { app, config, repos, clock, box, transactions, changes } = ctx;
  const geo = new GeoDatabaseService(repos.settings, ctx.blobs, transactions);
  const dataDir = config.dataDir;
  if (dataDir !== undefined) {
    // Databases an earlier version kept in this control plane's DATA_DIR move into the config store.
    app.addHook('onReady', async () => {
      const moved = await importLegacyGeoFiles(geo, ctx.blobs, dataDir, (err, file) =>
        app.log.error({ err, file }, 'a geo database file could not be moved into the config store'),
      );
      if (moved > 0) app.log.info({ moved }, 'geo databases moved from the data directory into the config store');
    });
  }
  bindGeoDatabaseRoutes(binder, geo, clock);
  // The operators' reputation lists (their routes are bound with the sites' setting: composition/sites.ts).
  const abuseIPs = new AbuseIPsService(transactions, repos.abuseIPs);
  const nodeExporter = new NodeExporterService(repos.settings);
  const privateOrigins = new PrivateOriginsService(repos.settings, config.allowPrivateOrigins);
  const snapshotBuilder = new SnapshotBuilder(
    repos.snapshot,
    {
      streamPorts: (ownerId, nodeGroups, listenPorts, now) =>
        edgeStreamPorts(repos.sitePorts, ownerId, nodeGroups, listenPorts, now),
      cachePolicies: (siteIds) => edgeCachePolicies(repos.siteCache, siteIds),
      modules: (domainIds) => edgeModulesOf(repos.siteModules, domainIds),
      siteSettings: async (siteIds) =>
        withTrafficThrottle(
          await edgeSiteSettings(repos.siteSettings, siteIds),
          await repos.traffic.throttled(siteIds),
        ),
      firewalls: (siteIds) => edgeFirewalls(repos.firewallRules, siteIds, (ids) => repos.blockList.blockedSites(ids)),
      domainAccess: (domainIds) => edgeDomainAccess(repos.domainAccess, domainIds),
      domainAuth: (domains) => edgeDomainAuth(repos.siteAuth, box, domains),
      nginxTuning: (ownerId) => operatorNginxTuning(repos.settings, ownerId),
      challenge: (ownerId, firewalls, now) =>
        firewallsChallenge(firewalls) ? edgeChallengeKeys(config.secret, ownerId, now) : noChallenge(),
      geoDatabase: (ownerId) => geo.hashOf(ownerId),
      abuseIPs: (ownerId, firewalls) =>
        firewalls.some((f) => f.reputation) ? abuseIPs.hashOf(ownerId) : Promise.resolve(null),
      acmeChallenges: (domainIds) => repos.autoCertificates.challengesOf(domainIds),
      nodeExporter: (ownerId) => nodeExporter.get(ownerId),
      errorPages: async (ownerId) => (await ctx.systemSettings.errorPages(ownerId)).pages,
      // The operator's choice alone: a node's own RAMPART_ALLOW_PRIVATE_ORIGINS overrides it there.
      privateOrigins: async (ownerId) => (await privateOrigins.setting(ownerId)).allowed,
      l4: (ownerId, streamPorts, zone) =>
        edgeL4(repos.firewallL4, streamPorts, zone, () => geo.countryNetworks(ownerId)),
    },
    box,
    { domains: ctx.capacity.domainLimit },
  );
  const snapshots = new SnapshotsService(snapshotBuilder, changes, clock, (nodeId, problem) =>
    app.log.warn({ nodeId, problem }, 'node snapshot incomplete'),
  );
  // Held node polls would otherwise keep a graceful shutdown waiting for up to their full wait.
  app.addHook('preClose', async () => snapshots.close());
  // The data plane as entries and deltas (docs/data-plane-deltas.md), built lazily when a node polls it.
  const planeEntries = new PlaneEntryBuilder(ctx.db, transactions, snapshotBuilder, repos.snapshot, clock);
  const planes = new PlaneService(ctx.db, planeEntries, snapshotBuilder, changes, clock);
  app.addHook('preClose', async () => planes.close());
  const monitorStatus = new MonitorStatusService(repos.monitorStatus);
  // Queued node commands wake the agents' command polls, as configuration changes wake snapshot polls.
  const nodeCommands = new NodeCommandsService(
    repos.nodeCommands,
    repos.nodes,
    transactions,
    ctx.queuedCommands,
    clock,
  );
  app.addHook('preClose', async () => nodeCommands.close());
  const releases = new AgentReleases(config.agentReleaseDir, config.version);
  const upgrades = new NodeUpgradeService(repos.nodeUpgrade, releases, nodeCommands, repos.nodeCommands, clock);
  const nodesService = new NodesService(repos.nodes, box, clock, transactions, ctx.licenseLimits);
  bindNodeRoutes(
    binder,
    nodesService,
    snapshots,
    planes,
    ctx.publicUrl,
    (node, version) => upgrades.reported(node.nodeId, node.ownerId, version),
    (operatorId, nodeIds) => monitorStatus.statesOf(operatorId, nodeIds),
  );
  bindNodeUpgradeRoutes(binder, upgrades, releases);
  bindNodeInstallRoutes(binder, releases, new InstallScript(config.agentReleaseDir));
  const nodeSettings = new NodeSettingsService(repos.nodes, repos.zones, transactions);
  bindNodeOperationRoutes(binder, nodesService, nodeCommands, nodeSettings, snapshots);
  bindSubNodeRoutes(binder, new SubNodesService(repos.subNodes, repos.nodes, transactions));
  bindBlockListRoutes(
    binder,
    new BlockListService(
      transactions,
      repos.blockList,
      repos.snapshot,
      repos.nodes,
      nodeCommands,
      clock,
      repos.firewallRules,
      changes,
    ),
  );
  return { snapshots, planes, planeEntries, monitorStatus, nodeCommands, nodeSettings, geo, abuseIPs, nodeExporter };
}
