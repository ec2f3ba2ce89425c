import {
  compareAgentVersions,
  type NodeCommand,
  type NodeUpgradeProgressIn,
  type NodeUpgradeStage,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AgentReleases } from './agent-releases.js';
import type { NodeCommandRow, NodeCommandsRepository } from './node-commands.repository.js';
import type { NodeCommandsService } from './node-commands.service.js';
import { presentUpgradeLog } from './node-upgrade.presenter.js';
import type { NodeUpgradeRepository } from './node-upgrade.repository.js';

/**
 * Node upgrades: queues `upgrade` commands for the release this control plane serves, records each
 * stage the agents report, and ends an upgrade when its node reports the new version (succeeded) or
 * its command fails or expires (failed).
 */
export class NodeUpgradeService {
  constructor(
    private readonly repo: NodeUpgradeRepository,
    private readonly releases: AgentReleases,
    private readonly commands: NodeCommandsService,
    private readonly commandRows: NodeCommandsRepository,
    private readonly clock: Clock,
  ) {
    commands.onFinished((rows) => this.commandsEnded(rows));
  }

  async latest(): Promise<{ version: string; available: boolean }> {
    return { version: this.releases.version, available: (await this.releases.manifest()) !== null };
  }

  /**
   * Queues an upgrade to the served release for every id, all or none. 202008 when there is no
   * release of the control plane's version, or when a node runs a newer version than it (a downgrade
   * is never made silently).
   */
  async upgrade(operatorId: number, ids: number[]): Promise<NodeCommand[]> {
    const version = this.releases.version;
    if ((await this.releases.manifest()) === null) {
      throw new AppError(202008, { extra: { reason: 'no agent release of this version to serve', version } });
    }
    const unique = [...new Set(ids)];
    return this.commands.queue(operatorId, unique, 'upgrade', undefined, {
      payload: { version },
      within: async (rows) => {
        const newer = (await this.repo.versions(operatorId, unique))
          .filter((n) => compareAgentVersions(n.version, version) === 1)
          .map((n) => n.id);
        if (newer.length > 0) {
          throw new AppError(202008, { extra: { reason: 'nodes run a newer version', version, nodeIDs: newer } });
        }
        await this.repo.start(operatorId, unique, version);
        await this.repo.insertLogs(rows.map((row) => this.log(row, 'queued', `upgrade to ${version} queued`)));
      },
    });
  }

  /** A stage an agent reports for one of its running upgrade commands; anything else is 101018. */
  async progress(nodeId: number, input: NodeUpgradeProgressIn) {
    const command = await this.commandRows.findSent(nodeId, input.commandId, 'upgrade');
    if (!command) throw new AppError(101018, { extra: { reason: 'not a running upgrade of this node' } });
    await this.repo.insertLogs([this.log(command, input.stage, input.message)]);
  }

  /** A status report: the node's running upgrade to `version` succeeded once the node reports it. */
  async reported(nodeId: number, ownerId: number, version: string): Promise<void> {
    if (await this.repo.end(nodeId, version, 'succeeded')) {
      await this.repo.insertLogs([
        {
          ownerId,
          nodeId,
          commandId: null,
          version,
          stage: 'reported',
          message: `the node reports version ${version}`,
          createdAt: new Date(this.clock()),
        },
      ]);
    }
  }

  async logs(operatorId: number, nodeId: number, page: number, pageSize: number) {
    if (!(await this.repo.owns(operatorId, nodeId))) throw new AppError(101018);
    const { rows, total } = await this.repo.listLogs(operatorId, nodeId, page, pageSize);
    return { data: rows.map(presentUpgradeLog), total };
  }

  /** Upgrade commands that ended: the agent restarts after a success; a failure or expiry ends the upgrade. */
  private async commandsEnded(rows: NodeCommandRow[]): Promise<void> {
    for (const row of rows) {
      if (row.type !== 'upgrade') continue;
      const version = String(row.payload.version);
      if (row.status === 'succeeded') {
        await this.repo.insertLogs([this.log(row, 'restarting', row.message)]);
      } else {
        await this.repo.end(row.nodeId, version, 'failed');
        await this.repo.insertLogs([this.log(row, 'failed', row.message)]);
      }
    }
  }

  private log(command: NodeCommandRow, stage: NodeUpgradeStage, message: string) {
    return {
      ownerId: command.ownerId,
      nodeId: command.nodeId,
      commandId: command.id,
      version: String(command.payload.version),
      stage,
      message,
      createdAt: new Date(this.clock()),
    };
  }
}
