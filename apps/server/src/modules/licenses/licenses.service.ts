import type { License, LicenseInfo, LicenseSetting, OfflineLicense } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import { signLicense, type VendorPublicKey, type VendorSigningKey, verifyLicense } from './license-document.js';
import type { LicenseLimits } from './license-limits.js';
import type { LicenseRow, LicensesRepository, OfflineLicenseRow } from './licenses.repository.js';

type Page = { page: number; pageSize: number };

function presentLicense(row: LicenseRow): License {
  return {
    id: row.id,
    userID: row.operatorId,
    userName: row.userName,
    licenseSetting: row.settings,
    issued: row.issuedAt !== null,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function presentOffline(row: OfflineLicenseRow): OfflineLicense {
  return {
    id: row.id,
    customer: row.customer,
    installID: row.installId,
    operator: row.operator,
    licenseSetting: row.settings,
    key: row.key,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface LicenseKeys {
  /** The public keys offline licences are checked against (vendor-keys.ts; tests inject their own). */
  readonly trusted: readonly VendorPublicKey[];
  /** The vendor's signing key: only on the vendor's installation (RAMPART_LICENSE_SIGNING_KEY_FILE). */
  readonly signing: VendorSigningKey | null;
}

/**
 * Licences: the vendor (admin tier) drafts, issues and signs them; the operator sees its own and
 * activates offline ones (routes/licenses.ts, docs/decisions.md "Licences").
 */
export class LicensesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly licenses: LicensesRepository,
    private readonly accounts: AccountsRepository,
    private readonly limits: LicenseLimits,
    private readonly keys: LicenseKeys,
    private readonly installId: () => string,
    private readonly clock: Clock,
  ) {}

  async list(page: Page) {
    const { rows, total } = await this.licenses.list(page);
    return { data: rows.map(presentLicense), total };
  }

  /** An operator (a root account of the client tier): 101018 for any other id. */
  private async operator(userId: number): Promise<number> {
    const account = await this.accounts.findById(userId);
    if (account?.tier !== 'client' || account.operatorId !== null) throw new AppError(101018);
    return account.id;
  }

  private async get(id: number): Promise<License> {
    const row = await this.licenses.find(id);
    if (!row) throw new AppError(101022);
    return presentLicense(row);
  }

  async create(userId: number, settings: LicenseSetting): Promise<License> {
    const operatorId = await this.operator(userId);
    const id = await this.licenses.insert({ operatorId, source: 'online', settings, issuedAt: null });
    return this.get(id);
  }

  async update(id: number, settings: LicenseSetting): Promise<License> {
    if (!(await this.licenses.update(id, 'online', { settings }))) throw new AppError(101022);
    return this.get(id);
  }

  /** All or none: 101022 when one of the ids is not an online licence. */
  async delete(ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      if ((await this.licenses.deleteMany(unique)) !== unique.length) throw new AppError(101022);
    });
  }

  async issue(id: number): Promise<License> {
    if (!(await this.licenses.update(id, 'online', { issuedAt: new Date(this.clock()) }))) throw new AppError(101022);
    return this.get(id);
  }

  async order(userId: number): Promise<LicenseInfo> {
    return this.info(await this.operator(userId));
  }

  async putOrder(userId: number, settings: LicenseSetting): Promise<LicenseInfo> {
    const operatorId = await this.operator(userId);
    await this.licenses.insert({ operatorId, source: 'online', settings, issuedAt: new Date(this.clock()) });
    return this.info(operatorId);
  }

  async listOffline(page: Page) {
    const { rows, total } = await this.licenses.listOffline(page);
    return { data: rows.map(presentOffline), total };
  }

  private async offline(id: number): Promise<OfflineLicense> {
    const row = await this.licenses.findOffline(id);
    if (!row) throw new AppError(101022);
    return presentOffline(row);
  }

  /** Creates (no id) or edits; an edit takes back the issued key, which no longer says what the row does. */
  async putOffline(
    adminId: number,
    input: { id?: number; customer: string; installID: string; operator: string; licenseSetting: LicenseSetting },
  ): Promise<OfflineLicense> {
    const values = {
      customer: input.customer.trim(),
      installId: input.installID,
      operator: input.operator,
      settings: input.licenseSetting,
    };
    if (input.id === undefined) return this.offline(await this.licenses.insertOffline({ ownerId: adminId, ...values }));
    if (!(await this.licenses.updateOffline(input.id, { ...values, key: null, issuedAt: null }))) {
      throw new AppError(101022);
    }
    return this.offline(input.id);
  }

  async deleteOffline(ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      if ((await this.licenses.deleteOffline(unique)) !== unique.length) throw new AppError(101022);
    });
  }

  /** 101024 on an installation without the vendor's signing key: it is not a licence server. */
  async issueOffline(id: number): Promise<OfflineLicense> {
    const row = await this.licenses.findOffline(id);
    if (!row) throw new AppError(101022);
    if (!this.keys.signing) throw new AppError(101024);
    // A record made before licences named their operator is edited to name one first.
    if (!row.operator) throw invalidFields([{ field: 'operator', key: 'required' }]);
    const issuedAt = new Date(this.clock());
    const key = signLicense(this.keys.signing, {
      id: row.id,
      installId: row.installId,
      operator: row.operator,
      customer: row.customer,
      settings: row.settings,
      issuedAt: issuedAt.toISOString(),
    });
    await this.licenses.updateOffline(id, { key, issuedAt });
    return this.offline(id);
  }

  async unregisterOffline(id: number): Promise<OfflineLicense> {
    if (!(await this.licenses.updateOffline(id, { key: null, issuedAt: null }))) throw new AppError(101022);
    return this.offline(id);
  }

  async own(operatorId: number): Promise<LicenseInfo> {
    return this.info(operatorId);
  }

  /** The operator's licence with what an offline one must name: this installation and the operator's account. */
  private async info(operatorId: number): Promise<LicenseInfo> {
    const operator = (await this.accounts.findById(operatorId))?.account ?? '';
    return { ...(await this.limits.info(operatorId, this.installId())), operator };
  }

  /**
   * Checks `key` with no network (license-document.ts) for this installation and the operator: a
   * document that names another operator is refused (900001), and one issued before documents named
   * their operator is the first activating operator's alone.
   */
  private async verifyFor(operatorId: number, key: string) {
    const operator = await this.accounts.findById(operatorId);
    if (!operator) throw new AppError(101018);
    const holder = { installId: this.installId(), operator: operator.account };
    const payload = verifyLicense(key, this.keys.trusted, holder, new Date(this.clock()));
    if (payload.operator === undefined && (await this.licenses.offlineKeyHeldByOther(key.trim(), operatorId))) {
      throw new AppError(900001);
    }
    return payload;
  }

  /** Checks the key and makes it the operator's licence. */
  async activate(operatorId: number, key: string): Promise<LicenseInfo> {
    const payload = await this.verifyFor(operatorId, key);
    await this.licenses.insert({
      operatorId,
      source: 'offline',
      settings: payload.settings,
      issuedAt: new Date(this.clock()),
      key: key.trim(),
    });
    return this.own(operatorId);
  }

  /** A renewal: 101022 when the operator has no offline licence to replace. */
  async updateKey(operatorId: number, key: string): Promise<LicenseInfo> {
    const current = await this.licenses.current(operatorId);
    if (current?.source !== 'offline') throw new AppError(101022);
    const payload = await this.verifyFor(operatorId, key);
    await this.licenses.update(current.id, 'offline', {
      settings: payload.settings,
      issuedAt: new Date(this.clock()),
      key: key.trim(),
    });
    return this.own(operatorId);
  }
}
