import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
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

export const listClientAnnouncements = defineRoute({
  id: 'client.announcements.list',
  method: 'GET',
  path: '/client/setting/announcements',
  access: tiers(['client'], 'client.announcements.read'),
  codes: [],
  summary: "The operator's announcements, newest first, paged, optionally only running or stopped ones",
  tags: ['announcements'],
  request: { query: listQuery },
  response: pageOf(announcementSchema),
});

export const createAnnouncement = defineRoute({
  id: 'client.announcement.create',
  method: 'POST',
  path: '/client/setting/announcement',
  access: tiers(['client'], 'client.announcements.write'),
  codes: [],
  summary: "Publishes an announcement to the operator's customers",
  tags: ['announcements'],
  request: { body },
  response: dataOf(announcementSchema),
});

export const updateAnnouncement = defineRoute({
  id: 'client.announcement.update',
  method: 'PUT',
  path: '/client/setting/announcement',
  access: tiers(['client'], 'client.announcements.write'),
  codes: [],
  summary: 'Edits an announcement',
  tags: ['announcements'],
  request: { body: body.extend({ id: zId }) },
  response: dataOf(announcementSchema),
});

export const deleteAnnouncement = defineRoute({
  id: 'client.announcement.delete',
  method: 'DELETE',
  path: '/client/setting/announcement',
  access: tiers(['client'], 'client.announcements.write'),
  codes: [],
  summary: 'Deletes one announcement',
  tags: ['announcements'],
  request: { body: z.object({ id: zId }) },
  response: okReply,
});

export const deleteAnnouncements = defineRoute({
  id: 'client.announcements.delete',
  method: 'DELETE',
  path: '/client/setting/announcements',
  access: tiers(['client'], 'client.announcements.write'),
  codes: [],
  summary: 'Deletes announcements (all or none)',
  tags: ['announcements'],
  request: { body: z.object({ ids: zIds(500) }) },
  response: okReply,
});

export const listUserAnnouncements = defineRoute({
  id: 'user.announcements.list',
  method: 'GET',
  path: '/user/announcements',
  access: tiers(['user'], 'user.resources.read'),
  codes: [],
  summary: "Announcements of the caller's operator, newest first, paged, optionally only running or stopped ones",
  tags: ['announcements'],
  request: { query: listQuery },
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
