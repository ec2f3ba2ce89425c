import type { TargetGuard } from '../../platform/http/target-guard.js';
import {
  canonicalName,
  DNS_PROVIDER_TIMEOUT_MS,
  DnsProviderError,
  probeName,
  RECORD_TYPES,
  type RecordType,
} from './dns-provider.js';
import { type HostedRecord, PerRecordProvider } from './per-record.provider.js';
import { providerCall } from './provider-http.js';

/** Cloudflare's API v4 (https://developers.cloudflare.com/api/). */
export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';

export interface CloudflareOptions {
  /** An API token with Zone:Read and DNS:Edit on the zone. */
  readonly apiToken: string;
  readonly zone: string;
  /** Another base URL (the tests' stand-in). */
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  /** Where the calls may go (platform/http/target-guard.ts). */
  readonly targets: TargetGuard;
}

interface CfEnvelope {
  success?: boolean;
  errors?: { code?: number; message?: string }[];
  result?: unknown;
  result_info?: { page?: number; total_pages?: number };
}

interface CfRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
}

/**
 * Cloudflare DNS (API v4, bearer token): the zone id is looked up by name once, records are read
 * per name and written one value per record. Records are DNS-only (`proxied: false`): the edge is
 * Rampart's own. TTL 1 ("automatic" at Cloudflare) is never written; a TTL below Cloudflare's
 * minimum is refused by Cloudflare with its message.
 */
export class CloudflareProvider extends PerRecordProvider {
  readonly lines = ['default'] as const;
  readonly zone: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private zoneId: string | undefined;

  constructor(private readonly options: CloudflareOptions) {
    super();
    this.zone = options.zone.toLowerCase();
    this.base = (options.baseUrl ?? CLOUDFLARE_API).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DNS_PROVIDER_TIMEOUT_MS;
  }

  async test(): Promise<string> {
    await this.idOfZone();
    const name = probeName(this.zone);
    const value = `rampart-test ${Date.now()}`;
    await this.create({ name, type: 'TXT', line: 'default', ttl: 60, value });
    for (const record of await this.recordsOf(name)) if (record.type === 'TXT') await this.remove(record);
    return `zone ${this.zone} found; TXT probe ${name} written and removed`;
  }

  protected async recordsOf(name: string): Promise<HostedRecord[]> {
    const zoneId = await this.idOfZone();
    const records: HostedRecord[] = [];
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({ name, per_page: '100', page: String(page) });
      const envelope = await this.call('GET', `/zones/${zoneId}/dns_records?${query}`);
      for (const r of (envelope.result ?? []) as CfRecord[]) {
        if (!RECORD_TYPES.includes(r.type as RecordType) || canonicalName(r.name) !== name) continue;
        records.push({ id: r.id, name, type: r.type as RecordType, line: 'default', ttl: r.ttl, value: r.content });
      }
      if (page >= (envelope.result_info?.total_pages ?? 1)) return records;
    }
  }

  protected async create(record: Omit<HostedRecord, 'id'>): Promise<void> {
    const zoneId = await this.idOfZone();
    await this.call('POST', `/zones/${zoneId}/dns_records`, {
      type: record.type,
      name: record.name,
      content: record.value,
      ttl: record.ttl,
      proxied: false,
    });
  }

  protected async update(record: HostedRecord): Promise<void> {
    await this.call('PATCH', `/zones/${await this.idOfZone()}/dns_records/${record.id}`, { ttl: record.ttl });
  }

  protected async remove(record: HostedRecord): Promise<void> {
    await this.call('DELETE', `/zones/${await this.idOfZone()}/dns_records/${record.id}`);
  }

  private async idOfZone(): Promise<string> {
    if (this.zoneId) return this.zoneId;
    const envelope = await this.call('GET', `/zones?${new URLSearchParams({ name: this.zone })}`);
    const zone = ((envelope.result ?? []) as { id?: string; name?: string }[]).find((z) => z.name === this.zone);
    if (!zone?.id) throw new DnsProviderError(`Cloudflare: no zone ${this.zone} for this token`);
    this.zoneId = zone.id;
    return zone.id;
  }

  private async call(method: string, path: string, body?: unknown): Promise<CfEnvelope> {
    const answer = await providerCall(
      this.options.targets,
      `${this.base}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${this.options.apiToken}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      this.timeoutMs,
    );
    const envelope = (answer.body ?? {}) as CfEnvelope;
    if (answer.status >= 200 && answer.status < 300 && envelope.success !== false) return envelope;
    const errors = Array.isArray(envelope.errors) ? envelope.errors : [];
    const said = errors.map((e) => `${e.message ?? ''}${e.code === undefined ? '' : ` (${e.code})`}`).join('; ');
    throw new DnsProviderError(`Cloudflare ${answer.status}: ${said || 'no error message'}`);
  }
}
