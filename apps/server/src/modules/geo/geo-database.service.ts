import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  continentOf,
  GEO_DATABASE_MAX_BYTES,
  GEO_REGIONS,
  type GeoDatabase,
  type GeoDatabaseKind,
  type GeoTreeNode,
  type Locale,
} from '@rampart/contract';
import { isUploadedFile } from '../../platform/http/multipart.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SettingsRepository } from '../system/settings.repository.js';
import { type MmdbCity, MmdbError, MmdbFile } from './mmdb-reader.js';

/** The system_settings key of an operator's geo database record. */
const settingKey = (operatorId: number) => `geo.database.${operatorId}`;

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

const NOWHERE = (_ip: string) => ({ country: '', city: 0 });
/** Addresses one locator remembers. */
const LOCATOR_CACHE = 100_000;

function locatorOf(file: MmdbFile): (ip: string) => { country: string; city: number } {
  const seen = new Map<string, { country: string; city: number }>();
  return (ip) => {
    let place = seen.get(ip);
    if (place) return place;
    place = { country: '', city: 0 };
    try {
      const rec = file.lookup(ip);
      if (rec && typeof rec === 'object' && !Array.isArray(rec) && !Buffer.isBuffer(rec)) {
        const country = (rec as Record<string, unknown>).country as Record<string, unknown> | undefined;
        const city = (rec as Record<string, unknown>).city as Record<string, unknown> | undefined;
        const code = country?.iso_code ?? (rec as Record<string, unknown>).country_code;
        if (typeof code === 'string' && /^[A-Za-z]{2}$/.test(code)) place.country = code.toUpperCase();
        const id = city?.geoname_id;
        if (typeof id === 'number' && Number.isSafeInteger(id)) place.city = id;
      }
    } catch {
      // An address the file cannot place (a malformed record) counts as unknown.
    }
    if (seen.size >= LOCATOR_CACHE) seen.delete(seen.keys().next().value as string);
    seen.set(ip, place);
    return place;
  };
}

/**
 * The operators' geo databases (routes/firewall-geos.ts; docs/decisions.md "Geo rules"). Each
 * operator may install one MaxMind DB file (Country or City); it is checked on upload, kept as
 * `<data dir>/geo/<operator id>/<sha256>.mmdb` with its metadata in system_settings, named by its
 * hash in the operator's nodes' snapshots and served to them by the node API. Its cities (a City
 * database) are read once per process and hash for the region tree and the rules' checks.
 */
export class GeoDatabaseService {
  private root: string | null;
  private readonly cityCache = new Map<string, Promise<MmdbCity[]>>();
  private readonly networkCache = new Map<string, Promise<Map<string, { v4: string[]; v6: string[] }>>>();
  private readonly locators = new Map<string, Promise<(ip: string) => { country: string; city: number }>>();

  constructor(
    private readonly settings: SettingsRepository,
    dataDir: string | undefined,
  ) {
    this.root = dataDir === undefined ? null : path.join(dataDir, 'geo');
  }

  private async dir(operatorId: number): Promise<string> {
    // Tests run without a data directory: a temporary one per process.
    this.root ??= await mkdtemp(path.join(tmpdir(), 'rampart-geo-'));
    const dir = path.join(this.root, String(operatorId));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** The operator's database record, or null. */
  async get(operatorId: number | null): Promise<GeoDatabase | null> {
    if (operatorId === null) return null;
    const value = (await this.settings.get(settingKey(operatorId))) as GeoDatabase | undefined;
    return value ?? null;
  }

  /** The hash nodes of the operator must hold, or null. */
  async hashOf(operatorId: number): Promise<string | null> {
    return (await this.get(operatorId))?.sha256 ?? null;
  }

  /**
   * Checks and installs the file part `file` (101003 naming `file` when it is missing, too large
   * or not a Country or City MaxMind DB), replacing the operator's previous database.
   */
  async upload(operatorId: number, parts: Record<string, unknown>, now: Date): Promise<GeoDatabase> {
    const file = parts.file;
    if (!isUploadedFile(file)) throw invalidFields([{ field: 'file', key: 'required' }]);
    if (file.truncated || file.data.length > GEO_DATABASE_MAX_BYTES) {
      throw invalidFields([
        { field: 'file', key: 'fileTooLarge', params: { max: `${GEO_DATABASE_MAX_BYTES / (1024 * 1024)} MiB` } },
      ]);
    }
    let db: MmdbFile;
    let cities: MmdbCity[];
    try {
      db = new MmdbFile(file.data);
      cities = kindOf(db.metadata.databaseType) === 'city' ? await db.cities() : [];
    } catch (err) {
      if (!(err instanceof MmdbError)) throw err;
      throw invalidFields([{ field: 'file', key: 'geoDatabaseFile', params: { reason: err.message } }]);
    }
    const kind = kindOf(db.metadata.databaseType);
    if (kind === null) {
      throw invalidFields([
        {
          field: 'file',
          key: 'geoDatabaseFile',
          params: { reason: `database type ${db.metadata.databaseType.slice(0, 64)}` },
        },
      ]);
    }
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    const dir = await this.dir(operatorId);
    const target = path.join(dir, `${sha256}.mmdb`);
    const temp = path.join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
    await writeFile(temp, file.data, { mode: 0o600 });
    await rename(temp, target);
    const previous = await this.get(operatorId);
    const record: GeoDatabase = {
      sha256,
      kind,
      databaseType: db.metadata.databaseType,
      builtAt: new Date(db.metadata.buildEpoch * 1000).toISOString(),
      ipVersion: db.metadata.ipVersion,
      size: file.data.length,
      cities: cities.length,
      uploadedAt: now.toISOString(),
    };
    await this.settings.put(settingKey(operatorId), record);
    this.cityCache.set(sha256, Promise.resolve(cities));
    if (previous && previous.sha256 !== sha256) await this.removeFile(operatorId, previous.sha256);
    return record;
  }

  async delete(operatorId: number): Promise<void> {
    const previous = await this.get(operatorId);
    if (!previous) return;
    await this.settings.delete(settingKey(operatorId));
    await this.removeFile(operatorId, previous.sha256);
  }

  private async removeFile(operatorId: number, sha256: string): Promise<void> {
    this.cityCache.delete(sha256);
    this.networkCache.delete(sha256);
    await rm(path.join(await this.dir(operatorId), `${sha256}.mmdb`), { force: true });
  }

  /** The bytes of the operator's current database when `sha256` names it, else null (node API). */
  async file(operatorId: number, sha256: string): Promise<Buffer | null> {
    const current = await this.get(operatorId);
    if (!current || current.sha256 !== sha256) return null;
    try {
      return await readFile(path.join(await this.dir(operatorId), `${sha256}.mmdb`));
    } catch {
      return null;
    }
  }

  /**
   * Where the operator's database places addresses (analytics' ingest): country code and city
   * GeoNames id ("" and 0 when unknown or without a database). Opened once per file; answers are
   * remembered per address (at most LOCATOR_CACHE of them, the oldest forgotten first).
   */
  async locator(operatorId: number): Promise<(ip: string) => { country: string; city: number }> {
    const current = await this.get(operatorId);
    if (!current) return NOWHERE;
    let cached = this.locators.get(current.sha256);
    if (!cached) {
      cached = this.file(operatorId, current.sha256).then((bytes) =>
        bytes ? locatorOf(new MmdbFile(bytes)) : NOWHERE,
      );
      cached.catch(() => this.locators.delete(current.sha256));
      this.locators.set(current.sha256, cached);
    }
    return cached;
  }

  /** The cities of the operator's database (none for a Country database or without one). */
  async cities(operatorId: number | null): Promise<MmdbCity[]> {
    const current = await this.get(operatorId);
    if (current?.kind !== 'city' || operatorId === null) return [];
    let cached = this.cityCache.get(current.sha256);
    if (!cached) {
      const id = operatorId;
      cached = this.file(id, current.sha256).then((bytes) => (bytes ? new MmdbFile(bytes).cities() : []));
      cached.catch(() => this.cityCache.delete(current.sha256));
      this.cityCache.set(current.sha256, cached);
    }
    return cached;
  }

  /**
   * The CIDR blocks of each country of the operator's database (MmdbFile.countryNetworks), or null
   * without a database: the layer-4 region rules' sets (firewall-l4.edge.ts). Computed once per
   * file (by its SHA-256) and kept while it is the operator's.
   */
  async countryNetworks(operatorId: number): Promise<Map<string, { v4: string[]; v6: string[] }> | null> {
    const current = await this.get(operatorId);
    if (!current) return null;
    let cached = this.networkCache.get(current.sha256);
    if (!cached) {
      cached = this.file(operatorId, current.sha256).then((bytes) =>
        bytes ? new MmdbFile(bytes).countryNetworks() : new Map(),
      );
      cached.catch(() => this.networkCache.delete(current.sha256));
      this.networkCache.set(current.sha256, cached);
    }
    return cached;
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
