import {
  type AsnDatabase,
  continentOf,
  GEO_DATABASE_MAX_BYTES,
  GEO_REGIONS,
  type GeoDatabase,
  type GeoDatabaseKind,
  type GeoTreeNode,
  type Locale,
  type MmdbFileRecord,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { FileBlobStore } from '../../platform/files/file-blobs.js';
import { isUploadedFile } from '../../platform/http/multipart.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { asnOf, type MmdbCity, type MmdbDecoded, MmdbError, MmdbFile } from './mmdb-reader.js';

/**
 * The operator's two database slots, both MaxMind DB files installed the same way: `geo` (a
 * Country or City database: geo rules, layer-4 regions, the countries and cities of analytics) and
 * `asn` (an ASN database: the autonomous system of layer-4 sources at ingest).
 */
export type DatabaseSlot = 'geo' | 'asn';
interface SlotRecords {
  geo: GeoDatabase;
  asn: AsnDatabase;
}
/** What every slot records of its file (MmdbFileRecord); the slot's check adds its own fields. */
type CommonField = keyof MmdbFileRecord;

interface SlotSpec<S extends DatabaseSlot> {
  /** The 101003 key naming what the file must be. */
  invalid: 'geoDatabaseFile' | 'asnDatabaseFile';
  /**
   * What an opened file holds for the slot — its own fields and values to remember under its hash
   * (`memo` purposes) — or why it is not one of the slot's. May throw MmdbError.
   */
  describe(db: MmdbFile): Promise<{ fields: Omit<SlotRecords[S], CommonField>; memos: [string, unknown][] } | string>;
}

const SLOTS: { [S in DatabaseSlot]: SlotSpec<S> } = {
  geo: {
    invalid: 'geoDatabaseFile',
    async describe(db) {
      const kind = kindOf(db.metadata.databaseType);
      if (kind === null) return `database type ${db.metadata.databaseType.slice(0, 64)}`;
      const cities = kind === 'city' ? await db.cities() : [];
      return { fields: { kind, cities: cities.length }, memos: [['cities', cities]] };
    },
  },
  asn: {
    invalid: 'asnDatabaseFile',
    async describe(db) {
      const asns = await db.asns();
      if (asns.size === 0) return 'no record names an autonomous system';
      return { fields: { asns: asns.size }, memos: [['asnNames', asns]] };
    },
  },
};

/** The system_settings key of an operator's database record of a slot (`geo.database.<operator id>`). */
const settingKey = (slot: DatabaseSlot, operatorId: number) => `${slot}.database.${operatorId}`;

/** The kind a database's type names, or null for one geo rules cannot use. */
function kindOf(databaseType: string): GeoDatabaseKind | null {
  if (/city/i.test(databaseType)) return 'city';
  if (/country/i.test(databaseType)) return 'country';
  return null;
}

/** City names: the caller's language when the database has it, else English, else any. */
const CITY_LANGUAGES: Record<Locale, string[]> = {
  en_US: ['en'],
  zh_CN: ['zh-CN', 'zh', 'en'],
  zh_TW: ['zh-TW', 'zh-Hant', 'zh-CN', 'zh', 'en'],
};

type Place = { country: string; city: number };
const NOWHERE = (_ip: string): Place => ({ country: '', city: 0 });
/** The ASN of an address no database knows: "0". */
const NO_ASN = (_ip: string) => '0';
/** Addresses one locator remembers. */
const LOCATOR_CACHE = 100_000;

/**
 * A lookup of addresses in `file` that remembers its answers (at most LOCATOR_CACHE addresses, the
 * oldest forgotten first); a record `read` cannot place (a malformed one) answers `unknown`.
 */
function cachedLookup<T>(file: MmdbFile, read: (rec: MmdbDecoded | undefined) => T, unknown: T): (ip: string) => T {
  const seen = new Map<string, T>();
  return (ip) => {
    let answer = seen.get(ip);
    if (answer !== undefined) return answer;
    try {
      answer = read(file.lookup(ip));
    } catch {
      answer = unknown;
    }
    if (seen.size >= LOCATOR_CACHE) seen.delete(seen.keys().next().value as string);
    seen.set(ip, answer);
    return answer;
  };
}

function placeOf(rec: MmdbDecoded | undefined): Place {
  const place = { country: '', city: 0 };
  if (rec && typeof rec === 'object' && !Array.isArray(rec) && !Buffer.isBuffer(rec)) {
    const country = (rec as Record<string, unknown>).country as Record<string, unknown> | undefined;
    const city = (rec as Record<string, unknown>).city as Record<string, unknown> | undefined;
    const code = country?.iso_code ?? (rec as Record<string, unknown>).country_code;
    if (typeof code === 'string' && /^[A-Za-z]{2}$/.test(code)) place.country = code.toUpperCase();
    const id = city?.geoname_id;
    if (typeof id === 'number' && Number.isSafeInteger(id)) place.city = id;
  }
  return place;
}

/**
 * The operators' MaxMind DB files (routes/firewall-geos.ts; docs/decisions.md "Geo rules" and "ASN
 * database"). Each operator may install one file per slot (DatabaseSlot): it is checked on upload
 * (the slot's SLOTS entry), kept in the config store's blobs (platform/files/file-blobs.ts: any
 * control plane serves it) with its metadata in system_settings, and replaced or removed the same
 * way for both. The geo file is
 * named by its hash in the operator's nodes' snapshots and served to them by the node API; the ASN
 * file stays on the control plane. What is read out of a file (cities, country networks, lookups,
 * ASN names) is computed once per process and hash (`memo`).
 */
export class GeoDatabaseService {
  /** Values computed from a file, by `<purpose>:<sha256>`. */
  private readonly memos = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: SettingsRepository,
    private readonly blobs: FileBlobStore,
    private readonly transactions: Transactions,
  ) {}

  /** The operator's database record of the slot, or null. */
  async get<S extends DatabaseSlot>(slot: S, operatorId: number | null): Promise<SlotRecords[S] | null> {
    if (operatorId === null) return null;
    const value = (await this.settings.get(settingKey(slot, operatorId))) as SlotRecords[S] | undefined;
    return value ?? null;
  }

  /** The hash of the geo database nodes of the operator must hold, or null. */
  async hashOf(operatorId: number): Promise<string | null> {
    return (await this.get('geo', operatorId))?.sha256 ?? null;
  }

  /**
   * Checks and installs the file part `file` in the slot (101003 naming `file` when it is missing,
   * too large, not a MaxMind DB or not one of the slot's), replacing the operator's previous one.
   */
  async upload<S extends DatabaseSlot>(
    slot: S,
    operatorId: number,
    parts: Record<string, unknown>,
    now: Date,
  ): Promise<SlotRecords[S]> {
    const file = parts.file;
    if (!isUploadedFile(file)) throw invalidFields([{ field: 'file', key: 'required' }]);
    if (file.truncated || file.data.length > GEO_DATABASE_MAX_BYTES) {
      throw invalidFields([
        { field: 'file', key: 'fileTooLarge', params: { max: `${GEO_DATABASE_MAX_BYTES / (1024 * 1024)} MiB` } },
      ]);
    }
    const spec = SLOTS[slot] as SlotSpec<S>;
    let opened: { db: MmdbFile; fields: Omit<SlotRecords[S], CommonField>; memos: [string, unknown][] } | string;
    try {
      const db = new MmdbFile(file.data);
      const described = await spec.describe(db);
      opened = typeof described === 'string' ? described : { db, ...described };
    } catch (err) {
      if (!(err instanceof MmdbError)) throw err;
      opened = err.message;
    }
    if (typeof opened === 'string') {
      throw invalidFields([{ field: 'file', key: spec.invalid, params: { reason: opened } }]);
    }
    const { db, fields, memos } = opened;
    const previous = await this.get(slot, operatorId);
    // The blob and the record together: the previous file's blob goes with its use.
    return this.transactions.run(async () => {
      const { sha256 } = await this.blobs.put(file.data, { kind: slot, ref: String(operatorId), ownerId: operatorId });
      const record = {
        sha256,
        databaseType: db.metadata.databaseType,
        builtAt: new Date(db.metadata.buildEpoch * 1000).toISOString(),
        ipVersion: db.metadata.ipVersion,
        size: file.data.length,
        uploadedAt: now.toISOString(),
        ...fields,
      } as SlotRecords[S];
      await this.settings.put(settingKey(slot, operatorId), record);
      for (const [purpose, value] of memos) this.memos.set(`${purpose}:${sha256}`, Promise.resolve(value));
      if (previous && previous.sha256 !== sha256) this.forget(previous.sha256);
      return record;
    });
  }

  async delete(slot: DatabaseSlot, operatorId: number): Promise<void> {
    const previous = await this.get(slot, operatorId);
    if (!previous) return;
    await this.transactions.run(async () => {
      await this.settings.delete(settingKey(slot, operatorId));
      await this.blobs.release(slot, [String(operatorId)]);
    });
    this.forget(previous.sha256);
  }

  private forget(sha256: string): void {
    for (const key of this.memos.keys()) if (key.endsWith(`:${sha256}`)) this.memos.delete(key);
  }

  /** The bytes of the operator's current file of the slot when `sha256` names it, else null. */
  async file(slot: DatabaseSlot, operatorId: number, sha256: string): Promise<Buffer | null> {
    const current = await this.get(slot, operatorId);
    if (!current || current.sha256 !== sha256) return null;
    return this.blobs.read(sha256);
  }

  /** The operator's current file of the slot as a stream when `sha256` names it (the node API), else null. */
  async fileStream(
    slot: DatabaseSlot,
    operatorId: number,
    sha256: string,
  ): Promise<import('node:stream').Readable | null> {
    const current = await this.get(slot, operatorId);
    if (!current || current.sha256 !== sha256) return null;
    return this.blobs.stream(sha256);
  }

  /**
   * `compute` of the operator's current file of the slot (null when the file is gone), once per
   * file and purpose while the file is installed; `none` without a file.
   */
  private async memo<T>(
    slot: DatabaseSlot,
    operatorId: number | null,
    purpose: string,
    none: T,
    compute: (db: MmdbFile | null) => T | Promise<T>,
  ): Promise<T> {
    const current = await this.get(slot, operatorId);
    if (!current || operatorId === null) return none;
    const key = `${purpose}:${current.sha256}`;
    let cached = this.memos.get(key) as Promise<T> | undefined;
    if (!cached) {
      cached = this.file(slot, operatorId, current.sha256).then((bytes) => compute(bytes ? new MmdbFile(bytes) : null));
      cached.catch(() => this.memos.delete(key));
      this.memos.set(key, cached);
    }
    return cached;
  }

  /**
   * Where the operator's geo database places addresses (analytics' ingest): country code and city
   * GeoNames id ("" and 0 when unknown or without a database). Opened once per file; answers are
   * remembered per address (at most LOCATOR_CACHE of them, the oldest forgotten first).
   */
  async locator(operatorId: number): Promise<(ip: string) => Place> {
    return this.memo('geo', operatorId, 'locator', NOWHERE, (db) =>
      db ? cachedLookup(db, placeOf, { country: '', city: 0 }) : NOWHERE,
    );
  }

  /**
   * The autonomous system of addresses in the operator's ASN database (layer-4 ingest), as the
   * decimal number ("0" when unknown or without a database); cached as the geo locator.
   */
  async asnLocator(operatorId: number): Promise<(ip: string) => string> {
    return this.memo('asn', operatorId, 'asnLocator', NO_ASN, (db) =>
      db ? cachedLookup(db, (rec) => String(asnOf(rec)?.number ?? 0), '0') : NO_ASN,
    );
  }

  /** The organisations the operator's ASN database names for these ASNs (those it knows and names). */
  async asnNames(operatorId: number | null, asns: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (asns.length === 0) return out;
    const names = await this.memo('asn', operatorId, 'asnNames', new Map<number, string>(), (db) =>
      db ? db.asns() : new Map<number, string>(),
    );
    for (const asn of asns) {
      const name = names.get(asn);
      if (name) out.set(asn, name);
    }
    return out;
  }

  /** The cities of the operator's geo database (none for a Country database or without one). */
  async cities(operatorId: number | null): Promise<MmdbCity[]> {
    if ((await this.get('geo', operatorId))?.kind !== 'city') return [];
    return this.memo('geo', operatorId, 'cities', [], (db) => (db ? db.cities() : []));
  }

  /**
   * The CIDR blocks of each country of the operator's geo database (MmdbFile.countryNetworks), or
   * null without a database: the layer-4 region rules' sets (firewall-l4.edge.ts). Computed once
   * per file (by its SHA-256) and kept while it is the operator's.
   */
  async countryNetworks(operatorId: number): Promise<Map<string, { v4: string[]; v6: string[] }> | null> {
    return this.memo('geo', operatorId, 'networks', null, (db) => (db ? db.countryNetworks() : new Map()));
  }

  /** The city ids among `ids` the operator's database does not know. */
  async unknownCities(operatorId: number | null, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const known = new Set((await this.cities(operatorId)).map((c) => c.geonameId));
    return ids.filter((id) => !known.has(id));
  }

  /** Names in `locale` of these cities of the operator's database (those it knows). */
  async cityNames(operatorId: number | null, ids: readonly number[], locale: Locale): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const wanted = new Set(ids);
    const out = new Map<number, string>();
    for (const city of await this.cities(operatorId)) {
      if (wanted.has(city.geonameId)) out.set(city.geonameId, cityName(city, locale));
    }
    return out;
  }

  /** The region tree of `user/geoips` in `locale`. */
  async tree(operatorId: number | null, locale: Locale): Promise<GeoTreeNode[]> {
    const byCountry = new Map<string, MmdbCity[]>();
    for (const city of await this.cities(operatorId)) {
      const list = byCountry.get(city.country) ?? [];
      list.push(city);
      byCountry.set(city.country, list);
    }
    return GEO_REGIONS.map((region) => {
      const countryName = region.names[locale];
      const continentCode = continentOf(region.alpha2);
      const cities = (byCountry.get(region.alpha2) ?? []).map((city) => ({
        id: String(city.geonameId),
        code: String(city.geonameId),
        alpha2: region.alpha2,
        countryName,
        cityName: cityName(city, locale),
        continentCode,
        children: [] as never[],
      }));
      cities.sort((a, b) => a.cityName.localeCompare(b.cityName));
      return {
        id: region.alpha2,
        code: region.alpha2,
        alpha2: region.alpha2,
        countryName,
        cityName: '',
        continentCode,
        children: cities,
      };
    });
  }
}

function cityName(city: MmdbCity, locale: Locale): string {
  for (const lang of CITY_LANGUAGES[locale]) {
    const name = city.names[lang];
    if (name) return name;
  }
  return Object.values(city.names)[0] ?? String(city.geonameId);
}
