import type { Announcement } from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors/app-error.js';
import { AccountsRepository } from '../auth/accounts.repository.js';
import { type AnnouncementRow, AnnouncementsRepository } from './announcements.repository.js';

type Values = { title: string; content: string; running: boolean };
type Page = { page: number; pageSize: number; running?: 'true' | 'false' | undefined };

/** Only the columns a caller may write, the title trimmed. */
function columns(values: Values): Values {
  return { title: values.title.trim(), content: values.content, running: values.running };
}

function present(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    running: row.running,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The operator writes announcements; its customers (and their sub-accounts) read them. */
export class AnnouncementsService {
  constructor(
    private readonly db: Db,
    private readonly repo: AnnouncementsRepository,
  ) {}

  async list(operatorId: number, q: Page) {
    const running = q.running === undefined ? undefined : q.running === 'true';
    const { rows, total } = await this.repo.list(operatorId, q.page, q.pageSize, running);
    return { data: rows.map(present), total };
  }

  async create(operatorId: number, values: Values): Promise<Announcement> {
    return present(await this.repo.insert(operatorId, columns(values)));
  }

  async update(operatorId: number, id: number, values: Values): Promise<Announcement> {
    const row = await this.repo.update(operatorId, id, columns(values));
    if (!row) throw new AppError(101018);
    return present(row);
  }

  /** All or none: an id that is not the operator's is 101018 and nothing is deleted. */
  async delete(operatorId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      if ((await new AnnouncementsRepository(tx).deleteMany(operatorId, unique)) !== unique.length) {
        throw new AppError(101018);
      }
    });
  }

  /** A customer outside every operator's tree has none. */
  async forUser(userId: number, q: Page) {
    const operator = await new AccountsRepository(this.db).operatorAbove(userId);
    if (operator === undefined) return { data: [], total: 0 };
    return this.list(operator.id, q);
  }
}
