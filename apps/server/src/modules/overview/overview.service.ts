import {
  NODE_ONLINE_WINDOW_SECONDS,
  OVERVIEW_CERT_EXPIRY_DAYS,
  OVERVIEW_NODE_PROBLEMS_MAX,
  type Overview,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import type { CnameSettingsService } from '../domains/cname-settings.service.js';
import type { DomainProofService } from '../domains/domain-proof.service.js';
import { presentNodeProblem } from './overview.presenter.js';
import type { OverviewRepository } from './overview.repository.js';

const DAY_MS = 86_400_000;

/**
 * The operator's overview (contract routes/overview.ts): each part only for a caller holding the
 * read key of what it counts, nodes limited to a restricted sub-account's zones.
 */
export class OverviewService {
  constructor(
    private readonly repo: OverviewRepository,
    private readonly cnameSettings: CnameSettingsService,
    private readonly domainProof: Pick<DomainProofService, 'choice'>,
    private readonly clock: Clock,
  ) {}

  async get(caller: ClientCaller): Promise<Overview> {
    const operatorId = caller.operatorId;
    const may = (key: string) => caller.permissions.has(key);
    const now = this.clock();
    const onlineSince = new Date(now - NODE_ONLINE_WINDOW_SECONDS * 1000);
    const [steps, cname, proof, nodes, sites, certificates] = await Promise.all([
      this.repo.steps(operatorId),
      this.cnameSettings.get(operatorId),
      this.domainProof.choice(operatorId),
      may('client.nodes.read') ? this.nodes(caller, onlineSince, now) : null,
      may('client.sites.read') ? this.repo.siteCounts(operatorId) : null,
      may('client.sites.read')
        ? this.repo.certificateCounts(operatorId, new Date(now), new Date(now + OVERVIEW_CERT_EXPIRY_DAYS * DAY_MS))
        : null,
    ]);
    return {
      checklist: { ...steps, cnameDomain: cname.custom, domainProof: proof.chosen },
      domainProofRequired: proof.required,
      nodes,
      sites,
      certificates,
    };
  }

  private async nodes(caller: ClientCaller, onlineSince: Date, now: number) {
    const [counts, problems, versions] = await Promise.all([
      this.repo.nodeCounts(caller.operatorId, caller.zoneScope, onlineSince),
      this.repo.nodeProblems(caller.operatorId, caller.zoneScope, onlineSince, OVERVIEW_NODE_PROBLEMS_MAX),
      this.repo.versions(caller.operatorId, caller.zoneScope),
    ]);
    return {
      total: counts.total,
      online: counts.online,
      offline: counts.total - counts.online,
      uninitialized: counts.uninitialized,
      problems: problems.map((row) => presentNodeProblem(row, now)),
      versions,
    };
  }
}
