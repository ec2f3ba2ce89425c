import { OPERATOR_NGINX_SECTION_ROUTES } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { OperatorNginxService } from './operator-nginx.service.js';

export function bindOperatorNginxRoutes(binder: Binder, service: OperatorNginxService): void {
  const r = OPERATOR_NGINX_SECTION_ROUTES;
  // Written out per section: each route's body is typed by its own section's schema.
  binder.bind(r.worker.get, async (_input, { caller }) => ({ data: (await service.tuning(caller.operatorId)).worker }));
  binder.bind(r.http.get, async (_input, { caller }) => ({ data: (await service.tuning(caller.operatorId)).http }));
  binder.bind(r.stream.get, async (_input, { caller }) => ({ data: (await service.tuning(caller.operatorId)).stream }));
  binder.bind(r.custom.get, async (_input, { caller }) => ({ data: (await service.tuning(caller.operatorId)).custom }));
  binder.bind(r.worker.put, async ({ body }, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'worker', body.value),
  }));
  binder.bind(r.http.put, async ({ body }, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'http', body.value),
  }));
  binder.bind(r.stream.put, async ({ body }, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'stream', body.value),
  }));
  binder.bind(r.custom.put, async ({ body }, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'custom', body.value),
  }));
  binder.bind(r.worker.delete, async (_input, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'worker', {}),
  }));
  binder.bind(r.http.delete, async (_input, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'http', {}),
  }));
  binder.bind(r.stream.delete, async (_input, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'stream', {}),
  }));
  binder.bind(r.custom.delete, async (_input, { caller }) => ({
    data: await service.setSection(caller.operatorId, 'custom', []),
  }));
}
