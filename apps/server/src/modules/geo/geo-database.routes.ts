import { asnDatabaseRoutes as a, geoDatabaseRoutes as r, userResourceRoutes } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import { multipartParts } from '../../platform/http/multipart.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { GeoDatabaseService } from './geo-database.service.js';

/** The operator's geo and ASN databases (console, and the node API for the geo one) and the customers' region tree. */
export function bindGeoDatabaseRoutes(binder: Binder, geo: GeoDatabaseService, clock: Clock): void {
  binder.bind(r.getGeoDatabase, async (_input, { caller }) => ({ data: await geo.get('geo', caller.operatorId) }));
  binder.bind(r.uploadGeoDatabase, async (_input, { caller, request }) => ({
    data: await geo.upload('geo', caller.operatorId, multipartParts(request), new Date(clock())),
  }));
  binder.bind(r.deleteGeoDatabase, async (_input, { caller }) => geo.delete('geo', caller.operatorId));
  binder.bind(a.getAsnDatabase, async (_input, { caller }) => ({ data: await geo.get('asn', caller.operatorId) }));
  binder.bind(a.uploadAsnDatabase, async (_input, { caller, request }) => ({
    data: await geo.upload('asn', caller.operatorId, multipartParts(request), new Date(clock())),
  }));
  binder.bind(a.deleteAsnDatabase, async (_input, { caller }) => geo.delete('asn', caller.operatorId));
  binder.bind(r.getNodeGeoDatabase, async ({ query }, { node, reply }) => {
    const stream = await geo.fileStream('geo', node.ownerId, query.sha256);
    if (!stream) throw new AppError(101018);
    reply.header('cache-control', 'no-store').type('application/octet-stream').send(stream);
    return '';
  });
  binder.bind(userResourceRoutes.listGeoIps, async (_input, { caller, request }) => ({
    data: await geo.tree(caller.operatorId, requestLocale(request)),
  }));
}
