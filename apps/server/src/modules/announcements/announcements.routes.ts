import { announcementRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AnnouncementsService } from './announcements.service.js';

export function bindAnnouncementRoutes(binder: Binder, service: AnnouncementsService): void {
  const r = announcementRoutes;
  binder.bind(r.listClientAnnouncements, async ({ query }, { caller }) => service.list(caller.operatorId, query));
  binder.bind(r.createAnnouncement, async ({ body }, { caller }) => ({
    data: await service.create(caller.operatorId, body),
  }));
  binder.bind(r.updateAnnouncement, async ({ body }, { caller }) => ({
    data: await service.update(caller.operatorId, body.id, body),
  }));
  binder.bind(r.deleteAnnouncement, async ({ body }, { caller }) => {
    await service.delete(caller.operatorId, [body.id]);
  });
  binder.bind(r.deleteAnnouncements, async ({ body }, { caller }) => {
    await service.delete(caller.operatorId, body.ids);
  });
  binder.bind(r.listUserAnnouncements, async ({ query }, { caller }) => service.forUser(caller.operatorId, query));
}
