import {
  EMPTY_NGINX_TUNING,
  type NginxTuning,
  type NginxTuningSection,
  nginxTuningSchema,
  OPERATOR_NGINX_SECTION_ROUTES,
} from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import type { Binder, Caller } from '../../platform/http/bind-route.js';
import { requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import { SettingsRepository } from '../system/settings.repository.js';

/** Where an operator's nginx settings are kept in the settings store. */
const keyOf = (operatorId: number) => `nginx.operator.${operatorId}`;

/**
 * The operator's nginx settings, the defaults under every zone's (see mergeNginxTuning). Each write
 * is a console call that changes state, so the nodes get the result with their next snapshot.
 */
export class OperatorNginxService {
  constructor(private readonly db: Db) {}

  /** The stored settings; a document that no longer fits the contract counts as none. */
  async tuning(operatorId: number): Promise<NginxTuning> {
    const parsed = nginxTuningSchema.safeParse(await new SettingsRepository(this.db).get(keyOf(operatorId)));
    return parsed.success ? parsed.data : { ...EMPTY_NGINX_TUNING };
  }

  async setSection<S extends NginxTuningSection>(operatorId: number, section: S, value: NginxTuning[S]) {
    // One writer per operator at a time: the document is read and written whole.
    return this.db.transaction(async (tx) => {
      const settings = new SettingsRepository(tx);
      await settings.lock(keyOf(operatorId));
      const current = nginxTuningSchema.safeParse(await settings.get(keyOf(operatorId)));
      const next = { ...(current.success ? current.data : EMPTY_NGINX_TUNING), [section]: value };
      await settings.put(keyOf(operatorId), next);
      return next[section] as NginxTuning[S];
    });
  }
}

export function bindOperatorNginxRoutes(binder: Binder, service: OperatorNginxService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  const read = async (caller: Caller | null) => service.tuning(await operator(caller));
  const r = OPERATOR_NGINX_SECTION_ROUTES;
  // Written out per section: each route's body is typed by its own section's schema.
  binder.bind(r.worker.get, async (_input, { caller }) => ({ data: (await read(caller)).worker }));
  binder.bind(r.http.get, async (_input, { caller }) => ({ data: (await read(caller)).http }));
  binder.bind(r.stream.get, async (_input, { caller }) => ({ data: (await read(caller)).stream }));
  binder.bind(r.custom.get, async (_input, { caller }) => ({ data: (await read(caller)).custom }));
  binder.bind(r.worker.put, async ({ body }, { caller }) => ({
    data: await service.setSection(await operator(caller), 'worker', body.value),
  }));
  binder.bind(r.http.put, async ({ body }, { caller }) => ({
    data: await service.setSection(await operator(caller), 'http', body.value),
  }));
  binder.bind(r.stream.put, async ({ body }, { caller }) => ({
    data: await service.setSection(await operator(caller), 'stream', body.value),
  }));
  binder.bind(r.custom.put, async ({ body }, { caller }) => ({
    data: await service.setSection(await operator(caller), 'custom', body.value),
  }));
  binder.bind(r.worker.delete, async (_input, { caller }) => ({
    data: await service.setSection(await operator(caller), 'worker', {}),
  }));
  binder.bind(r.http.delete, async (_input, { caller }) => ({
    data: await service.setSection(await operator(caller), 'http', {}),
  }));
  binder.bind(r.stream.delete, async (_input, { caller }) => ({
    data: await service.setSection(await operator(caller), 'stream', {}),
  }));
  binder.bind(r.custom.delete, async (_input, { caller }) => ({
    data: await service.setSection(await operator(caller), 'custom', []),
  }));
}
