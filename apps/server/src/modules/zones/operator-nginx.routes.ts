import { OPERATOR_NGINX_SECTION_ROUTES } from '@rampart/contract';
import type { Binder, Caller } from '../../platform/http/bind-route.js';
import { requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { OperatorNginxService } from './operator-nginx.service.js';

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
