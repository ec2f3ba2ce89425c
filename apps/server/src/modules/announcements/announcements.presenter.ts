import type { Announcement } from '@rampart/contract';
import type { AnnouncementRow } from './announcements.repository.js';

export function presentAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    running: row.running,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
