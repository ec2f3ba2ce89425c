import { logoRoutes, systemRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { multipartParts } from '../../platform/http/multipart.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { LogosService } from './logos.service.js';

export function bindLogoRoutes(binder: Binder, service: LogosService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  const r = logoRoutes;
  binder.bind(r.listLogos, async ({ query }, { caller }) =>
    service.list(await operator(caller), query.page, query.pageSize),
  );
  binder.bind(r.createLogo, async ({ body }, { caller, request }) => ({
    data: await service.create(await operator(caller), requestLocale(request), body, multipartParts(request)),
  }));
  binder.bind(r.updateLogo, async ({ body }, { caller, request }) => ({
    data: await service.update(await operator(caller), requestLocale(request), body, multipartParts(request)),
  }));
  binder.bind(r.deleteLogo, async (_input, { caller }) => {
    await service.delete(await operator(caller));
    return { data: true as const };
  });
  binder.bind(systemRoutes.logo, async ({ params, query }) => ({
    data: await service.branding(params.auth, query.operator),
  }));
}
