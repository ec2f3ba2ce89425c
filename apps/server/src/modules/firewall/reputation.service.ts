import { createHash } from 'node:crypto';
import {
  ABUSE_IP_IMPORT_ROWS_MAX,
  ABUSE_IPS_MAX,
  type AbuseIP,
  type AbuseIPImportMode,
  type AbuseIPImportSummary,
  type AbuseIPIn,
  type AbuseIPListQuery,
  type AbuseIPSetting,
  type AbuseIPSettingIn,
  abuseIPRanges,
  DEFAULT_ABUSE_IP_SETTING,
  encodeAbuseIPFile,
  normalizeAbuseIP,
  parseAbuseIPImport,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteAccessRepository } from '../../platform/tenancy/site-access.repository.js';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';
import type { AbuseIPFilter, AbuseIPRow, AbuseIPsRepository, AbuseIPValues } from './reputation.repository.js';

function present(row: AbuseIPRow): AbuseIP {
  return {
    id: row.id,
    ip: row.ip,
    score: row.score,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored values of an entry the contract checked (and normalised). */
function valuesOf(ip: string, score: number, memo: string): AbuseIPValues {
  const entry = normalizeAbuseIP(ip);
  if (!entry) throw new Error(`not a normalised abuse IP entry: ${ip}`);
  const digits = entry.version === 4 ? 8 : 32;
  return {
    ip: entry.ip,
    family: entry.version,
    rangeFrom: entry.first.toString(16).padStart(digits, '0'),
    rangeTo: entry.last.toString(16).padStart(digits, '0'),
    score,
    memo,
  };
}

/** The operator's list as a file the nodes read (edge/reputation.ts), at one revision. */
interface BuiltList {
  revision: number;
  /** null: the list is empty (the nodes get none). */
  sha256: string | null;
  bytes: Buffer;
}

/**
 * The operators' reputation lists (routes/firewall-reputation.ts; docs/decisions.md "IP trust
 * protection"). Every write runs in one transaction that first raises the list's revision (and
 * locks its row, so writers take turns and the limit and duplicate checks see a settled list); the
 * file the nodes fetch is built from the rows once per process and revision and kept by content
 * (its SHA-256). The snapshot hook in app.ts sends a change to the nodes.
 */
export class AbuseIPsService {
  private readonly built = new Map<number, Promise<BuiltList>>();

  constructor(
    private readonly transactions: Transactions,
    private readonly repo: AbuseIPsRepository,
  ) {}

  async list(ownerId: number, query: AbuseIPListQuery): Promise<{ data: AbuseIP[]; total: number }> {
    let filter: AbuseIPFilter = null;
    const text = query.ip?.trim() ?? '';
    if (text !== '') {
      const entry = normalizeAbuseIP(text);
      // An address: the entries that contain it; anything else (a CIDR, part of an address): text.
      filter = entry && entry.first === entry.last ? { address: valuesOf(entry.ip, 1, '') } : { text };
    }
    const { rows, total } = await this.repo.page(ownerId, filter, query);
    return { data: rows.map(present), total };
  }

  /** 101003 duplicateIP naming each field whose IP is twice in `ips` or held by another entry. */
  private async refuseDuplicates(
    ownerId: number,
    ips: readonly string[],
    field: (i: number) => string,
    except?: number,
  ): Promise<void> {
    const held = new Set((await this.repo.holding(ownerId, ips, except)).map((r) => r.ip));
    const seen = new Set<string>();
    const bad: number[] = [];
    ips.forEach((ip, i) => {
      if (held.has(ip) || seen.has(ip)) bad.push(i);
      seen.add(ip);
    });
    if (bad.length > 0) {
      throw invalidFields(
        bad.map((i) => ({ field: field(i), key: 'duplicateIP', params: { value: ips[i] as string } })),
      );
    }
  }

  private async refuseOverLimit(ownerId: number): Promise<void> {
    if ((await this.repo.count(ownerId)) > ABUSE_IPS_MAX) throw new AppError(101029, { extra: { max: ABUSE_IPS_MAX } });
  }

  async add(ownerId: number, inputs: AbuseIPIn[]): Promise<AbuseIP[]> {
    return this.transactions.run(async () => {
      await this.repo.beginChange(ownerId);
      await this.refuseDuplicates(
        ownerId,
        inputs.map((e) => e.ip),
        (i) => `data.${i}.ip`,
      );
      const rows = await this.repo.insert(
        ownerId,
        inputs.map((e) => valuesOf(e.ip, e.score, e.memo)),
      );
      await this.refuseOverLimit(ownerId);
      return rows.map(present);
    });
  }

  async update(ownerId: number, id: number, input: AbuseIPIn): Promise<AbuseIP> {
    return this.transactions.run(async () => {
      await this.repo.beginChange(ownerId);
      await this.refuseDuplicates(ownerId, [input.ip], () => 'ip', id);
      const row = await this.repo.update(ownerId, id, valuesOf(input.ip, input.score, input.memo));
      if (!row) throw new AppError(101018);
      return present(row);
    });
  }

  /** All or none: an id that is not an entry of the operator's list refuses the whole call (101018). */
  async delete(ownerId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      await this.repo.beginChange(ownerId);
      requireEvery(await this.repo.delete(ownerId, unique), unique);
    });
  }

  /**
   * Imports text (parseAbuseIPImport), all or none: 101003 names the bad lines (field `text`);
   * `merge` adds and updates by IP, `replace` also removes every entry the text does not name.
   */
  async import(
    ownerId: number,
    input: { text: string; mode: AbuseIPImportMode; defaultScore: number },
  ): Promise<AbuseIPImportSummary> {
    const parsed = parseAbuseIPImport(input.text, input.defaultScore);
    if (!parsed.ok) {
      if (parsed.tooMany !== undefined) {
        throw invalidFields([
          {
            field: 'text',
            key: 'abuseIPImportRows',
            params: { max: ABUSE_IP_IMPORT_ROWS_MAX, count: parsed.tooMany },
          },
        ]);
      }
      const fields = parsed.errors.map((e) => ({ field: 'text', key: e.key, params: e.params }));
      if (parsed.more > 0) fields.push({ field: 'text', key: 'abuseIPImportMore', params: { count: parsed.more } });
      throw invalidFields(fields);
    }
    if (parsed.rows.length === 0) throw invalidFields([{ field: 'text', key: 'required' }]);
    const values = parsed.rows.map((r) => valuesOf(r.ip, r.score, r.memo));
    return this.transactions.run(() =>
      this.repo.withoutRowAudit(async () => {
        await this.repo.beginChange(ownerId);
        const { added, updated } = await this.repo.upsert(ownerId, values);
        const removed =
          input.mode === 'replace'
            ? await this.repo.deleteExcept(
                ownerId,
                values.map((v) => v.ip),
              )
            : 0;
        const total = await this.repo.count(ownerId);
        if (total > ABUSE_IPS_MAX) throw new AppError(101029, { extra: { max: ABUSE_IPS_MAX } });
        return { added, updated, unchanged: values.length - added - updated, removed, total };
      }),
    );
  }

  /** The operator's list as the nodes read it at its current revision (built once per process and revision). */
  private async current(ownerId: number): Promise<BuiltList> {
    const revision = await this.repo.revision(ownerId);
    const cached = this.built.get(ownerId);
    if (cached) {
      const list = await cached.catch(() => null);
      if (list && list.revision === revision) return list;
    }
    const building = this.build(ownerId, revision);
    this.built.set(ownerId, building);
    building.catch(() => {
      if (this.built.get(ownerId) === building) this.built.delete(ownerId);
    });
    return building;
  }

  private async build(ownerId: number, revision: number): Promise<BuiltList> {
    const rows = await this.repo.ranges(ownerId);
    if (rows.length === 0) return { revision, sha256: null, bytes: Buffer.alloc(0) };
    const bytes = Buffer.from(
      encodeAbuseIPFile(
        abuseIPRanges(
          rows.map((r) => ({
            version: r.family,
            first: BigInt(`0x${r.rangeFrom}`),
            last: BigInt(`0x${r.rangeTo}`),
            score: r.score,
          })),
        ),
      ),
    );
    return { revision, sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
  }

  /** The SHA-256 of the operator's list file, or null when the list is empty. */
  async hashOf(ownerId: number): Promise<string | null> {
    return (await this.current(ownerId)).sha256;
  }

  /** The bytes of the operator's list file when `sha256` names the current one, else null (node API). */
  async file(ownerId: number, sha256: string): Promise<Buffer | null> {
    const list = await this.current(ownerId);
    return list.sha256 === sha256 ? list.bytes : null;
  }
}

/** The fields the site setting stores in its `site_firewall_rules` row (kind `abuseIP`, one per site). */
export interface StoredAbuseIPSetting {
  enabled: boolean;
  threshold: number;
  blockType: number;
}

/**
 * A site's IP trust protection setting (routes/firewall-reputation.ts), kept as the site's one
 * firewall row of kind `abuseIP`, so that the edge projection reads it with the site's rules. Every
 * call starts with the site check (101018 for a site that is not the caller's).
 */
export class AbuseIPSettingService {
  constructor(
    private readonly transactions: Transactions,
    private readonly rules: FirewallRulesRepository,
    private readonly sites: SiteAccessRepository,
    private readonly access: SiteAccess,
  ) {}

  async get(userId: number, siteId: number): Promise<AbuseIPSetting> {
    await this.access.userSite(userId, siteId);
    const { rows } = await this.rules.page(siteId, 'abuseIP', 1, 1);
    const stored = rows[0]?.rule as StoredAbuseIPSetting | undefined;
    return stored
      ? { enabled: stored.enabled, threshold: stored.threshold, blockType: stored.blockType }
      : DEFAULT_ABUSE_IP_SETTING;
  }

  async update(userId: number, siteId: number, input: AbuseIPSettingIn): Promise<AbuseIPSetting> {
    await this.access.userSite(userId, siteId);
    const rule = {
      enabled: input.enabled,
      threshold: input.threshold,
      blockType: input.blockType,
    } satisfies StoredAbuseIPSetting;
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: two first saves make one row.
      await this.sites.lock(siteId);
      const { rows } = await this.rules.page(siteId, 'abuseIP', 1, 1);
      const existing = rows[0];
      if (existing) await this.rules.update(siteId, 'abuseIP', existing.id, { rule, memo: '' });
      else await this.rules.insert(siteId, 'abuseIP', [{ rule, memo: '' }]);
      return rule;
    });
  }
}
