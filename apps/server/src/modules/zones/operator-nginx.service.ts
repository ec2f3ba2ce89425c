import type { NginxTuning, NginxTuningSection } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { operatorNginxKey, operatorNginxTuning, parseOperatorNginx } from './operator-nginx.edge.js';

/**
 * The operator's nginx settings, the defaults under every zone's (see mergeNginxTuning). Each write
 * is a console call that changes state, so the nodes get the result with their next snapshot.
 */
export class OperatorNginxService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly transactions: Transactions,
  ) {}

  /** The stored settings; a document that no longer fits the contract counts as none. */
  tuning(operatorId: number): Promise<NginxTuning> {
    return operatorNginxTuning(this.settings, operatorId);
  }

  async setSection<S extends NginxTuningSection>(operatorId: number, section: S, value: NginxTuning[S]) {
    // One writer per operator at a time: the document is read and written whole.
    return this.transactions.run(async () => {
      const key = operatorNginxKey(operatorId);
      await this.settings.lock(key);
      const next = { ...parseOperatorNginx(await this.settings.get(key)), [section]: value };
      await this.settings.put(key, next);
      return next[section] as NginxTuning[S];
    });
  }
}
