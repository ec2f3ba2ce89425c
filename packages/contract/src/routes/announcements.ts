import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIds } from '../validators/ids.js';
import { zName, zText } from '../validators/zod.js';

/**
 * Announcements: the operator writes them (spec part 2 §7 "Operator settings: logos and
 * announcements"), its customers read them (part 1 §7 `user/announcements`), newest first.
 */

export const ANNOUNCEMENT_CONTENT_MAX = 5000;

export const announcementSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  /** Shown scrolling along the top of the customer console while set. */
  running: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** `running=true` lists only the running announcements, `false` only the others; absent: all. */
const listQuery = pageQuery.extend({ running: z.enum(['true', 'false']).optional() });
const body = z.object({
  title: zName,
  content: zText(ANNOUNCEMENT_CONTENT_MAX),
  running: z.boolean().default(false),
});
/** An announcement's fields as the server receives them. */
export type AnnouncementIn = z.output<typeof body>;
/** The list query as the server receives it. */
export type AnnouncementListQuery = z.output<typeof listQuery>;

const route = routeFamily({
  tags: ['announcements'],
  read: tiers(['client'], 'client.announcements.read'),
  write: tiers(['client'], 'client.announcements.write'),
});

export const listClientAnnouncements = route.get('client.announcements.list', '/client/setting/announcements', {
  summary: "The operator's announcements, newest first, paged, optionally only running or stopped ones",
  query: listQuery,
  response: pageOf(announcementSchema),
});

export const createAnnouncement = route.post('client.announcement.create', '/client/setting/announcement', {
  summary: "Publishes an announcement to the operator's customers",
  body,
  response: dataOf(announcementSchema),
});

export const updateAnnouncement = route.put('client.announcement.update', '/client/setting/announcement', {
  summary: 'Edits an announcement',
  body: body.extend({ id: zId }),
  response: dataOf(announcementSchema),
});

export const deleteAnnouncement = route.delete('client.announcement.delete', '/client/setting/announcement', {
  summary: 'Deletes one announcement',
  body: z.object({ id: zId }),
  response: okReply,
});

export const deleteAnnouncements = route.delete('client.announcements.delete', '/client/setting/announcements', {
  summary: 'Deletes announcements (all or none)',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const listUserAnnouncements = route.get('user.announcements.list', '/user/announcements', {
  access: tiers(['user'], 'user.resources.read'),
  summary: "Announcements of the caller's operator, newest first, paged, optionally only running or stopped ones",
  query: listQuery,
  response: pageOf(announcementSchema),
});

export const announcementRoutes = {
  listClientAnnouncements,
  createAnnouncement,
  updateAnnouncement,
  deleteAnnouncement,
  deleteAnnouncements,
  listUserAnnouncements,
} as const;
