import type { Announcement, AnnouncementIn, AnnouncementListQuery } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { presentAnnouncement } from './announcements.presenter.js';
import type { AnnouncementsRepository } from './announcements.repository.js';

/** Only the columns a caller may write, the title trimmed. */
function columns(values: AnnouncementIn): AnnouncementIn {
  return { title: values.title.trim(), content: values.content, running: values.running };
}

/** The operator writes announcements; its customers (and their sub-accounts) read them. */
export class AnnouncementsService {
  constructor(
    private readonly repo: AnnouncementsRepository,
    private readonly transactions: Transactions,
  ) {}

  async list(operatorId: number, q: AnnouncementListQuery) {
    const running = q.running === undefined ? undefined : q.running === 'true';
    const { rows, total } = await this.repo.list(operatorId, q.page, q.pageSize, running);
    return { data: rows.map(presentAnnouncement), total };
  }

  async create(operatorId: number, values: AnnouncementIn): Promise<Announcement> {
    return presentAnnouncement(await this.repo.insert(operatorId, columns(values)));
  }

  async update(operatorId: number, id: number, values: AnnouncementIn): Promise<Announcement> {
    const row = await this.repo.update(operatorId, id, columns(values));
    if (!row) throw new AppError(101018);
    return presentAnnouncement(row);
  }

  /** All or none: an id that is not the operator's is 101018 and nothing is deleted. */
  async delete(operatorId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.deleteMany(operatorId, unique), unique);
    });
  }

  /** A customer outside every operator's tree has none. */
  async forUser(operatorId: number | null, q: AnnouncementListQuery) {
    if (operatorId === null) return { data: [], total: 0 };
    return this.list(operatorId, q);
  }
}
