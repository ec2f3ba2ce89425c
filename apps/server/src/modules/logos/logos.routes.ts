import { logoRoutes, systemRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import { multipartParts } from '../../platform/http/multipart.js';
import type { LogosService } from './logos.service.js';

export function bindLogoRoutes(binder: Binder, service: LogosService): void {
  const r = logoRoutes;
  binder.bind(r.listLogos, async ({ query }, { caller }) =>
    service.list(caller.operatorId, query.page, query.pageSize),
  );
  binder.bind(r.createLogo, async ({ body }, { caller, request }) => ({
    data: await service.create(caller.operatorId, body, multipartParts(request)),
  }));
  binder.bind(r.updateLogo, async ({ body }, { caller, request }) => ({
    data: await service.update(caller.operatorId, body, multipartParts(request)),
  }));
  binder.bind(r.deleteLogo, async (_input, { caller }) => {
    await service.delete(caller.operatorId);
  });
  binder.bind(systemRoutes.logo, async ({ params, query }) => ({
    data: await service.branding(params.auth, query.operator),
  }));
}
