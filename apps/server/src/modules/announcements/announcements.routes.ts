import { announcementRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { AnnouncementsService } from './announcements.service.js';

export function bindAnnouncementRoutes(binder: Binder, service: AnnouncementsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  const r = announcementRoutes;
  binder.bind(r.listClientAnnouncements, async ({ query }, { caller }) => service.list(await operator(caller), query));
  binder.bind(r.createAnnouncement, async ({ body }, { caller }) => ({
    data: await service.create(await operator(caller), body),
  }));
  binder.bind(r.updateAnnouncement, async ({ body }, { caller }) => ({
    data: await service.update(await operator(caller), body.id, body),
  }));
  binder.bind(r.deleteAnnouncement, async ({ body }, { caller }) => {
    await service.delete(await operator(caller), [body.id]);
    return { data: true as const };
  });
  binder.bind(r.deleteAnnouncements, async ({ body }, { caller }) => {
    await service.delete(await operator(caller), body.ids);
    return { data: true as const };
  });
  binder.bind(r.listUserAnnouncements, async ({ query }, { caller }) =>
    service.forUser(requireCaller(caller).accountId, query),
  );
}
