import { DNS_LINES } from '@rampart/contract';
import type { TargetGuard } from '../../platform/http/target-guard.js';
import { DNS_PROVIDER_TIMEOUT_MS, DnsProviderError, probeName, RECORD_TYPES, type RecordType } from './dns-provider.js';
import { type HostedRecord, PerRecordProvider } from './per-record.provider.js';
import { providerCall } from './provider-http.js';

/** DNSPod's API (https://docs.dnspod.cn/api/, `login_token` authentication). */
export const DNSPOD_API = 'https://dnsapi.cn';

export interface DnspodOptions {
  /** `ID,Token` of a DNSPod API token. */
  readonly token: string;
  readonly zone: string;
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  /** Where the calls may go (platform/http/target-guard.ts). */
  readonly targets: TargetGuard;
  /** Sent as User-Agent, which DNSPod requires (`name/version (contact)`). */
  readonly userAgent?: string;
}

/** DNSPod's line names are the Chinese names of the catalogue's lines (`默认`, `电信`, ...). */
const LINE_NAMES: ReadonlyMap<string, string> = new Map(DNS_LINES.map((l) => [l.id, l.name.zh_CN]));
const LINE_IDS: ReadonlyMap<string, string> = new Map(DNS_LINES.map((l) => [l.name.zh_CN, l.id]));

interface DpStatus {
  status?: { code?: string; message?: string };
  records?: { id: string | number; name: string; type: string; line: string; ttl: string | number; value: string }[];
}

/**
 * DNSPod (Tencent Cloud's DNS for mainland China) through its `dnsapi.cn` API: form-encoded POSTs
 * with the `ID,Token` login token; every catalogue line is a DNSPod line of the same Chinese name.
 */
export class DnspodProvider extends PerRecordProvider {
  readonly lines = DNS_LINES.map((l) => l.id);
  readonly zone: string;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: DnspodOptions) {
    super();
    this.zone = options.zone.toLowerCase();
    this.base = (options.baseUrl ?? DNSPOD_API).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DNS_PROVIDER_TIMEOUT_MS;
  }

  async test(): Promise<string> {
    await this.call('Domain.Info', {});
    const name = probeName(this.zone);
    await this.create({ name, type: 'TXT', line: 'default', ttl: 600, value: `rampart-test ${Date.now()}` });
    for (const record of await this.recordsOf(name)) if (record.type === 'TXT') await this.remove(record);
    return `domain ${this.zone} found; TXT probe ${name} written and removed`;
  }

  private subDomain(name: string): string {
    return name === this.zone ? '@' : name.slice(0, -(this.zone.length + 1));
  }

  protected async recordsOf(name: string): Promise<HostedRecord[]> {
    const answer = await this.call('Record.List', { sub_domain: this.subDomain(name), length: '3000' });
    const records: HostedRecord[] = [];
    for (const r of answer.records ?? []) {
      const line = LINE_IDS.get(r.line);
      if (!RECORD_TYPES.includes(r.type as RecordType) || line === undefined) continue;
      const value = r.type === 'CNAME' ? r.value.replace(/\.$/, '') : r.value;
      records.push({ id: String(r.id), name, type: r.type as RecordType, line, ttl: Number(r.ttl), value });
    }
    return records;
  }

  private fields(record: Omit<HostedRecord, 'id'>): Record<string, string> {
    return {
      sub_domain: this.subDomain(record.name),
      record_type: record.type,
      record_line: LINE_NAMES.get(record.line) ?? '默认',
      value: record.value,
      ttl: String(record.ttl),
    };
  }

  protected async create(record: Omit<HostedRecord, 'id'>): Promise<void> {
    await this.call('Record.Create', this.fields(record));
  }

  protected async update(record: HostedRecord): Promise<void> {
    await this.call('Record.Modify', { record_id: record.id, ...this.fields(record) });
  }

  protected async remove(record: HostedRecord): Promise<void> {
    await this.call('Record.Remove', { record_id: record.id });
  }

  private async call(action: string, params: Record<string, string>): Promise<DpStatus> {
    const body = new URLSearchParams({
      login_token: this.options.token,
      format: 'json',
      lang: 'en',
      error_on_empty: 'no',
      domain: this.zone,
      ...params,
    });
    const answer = await providerCall(
      this.options.targets,
      `${this.base}/${action}`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'User-Agent': this.options.userAgent ?? 'Rampart/1 (rampart)',
        },
        body: body.toString(),
      },
      this.timeoutMs,
    );
    const parsed = (answer.body ?? {}) as DpStatus;
    if (answer.status === 200 && parsed.status?.code === '1') return parsed;
    const said = parsed.status?.message ?? (typeof answer.body === 'string' ? answer.body.slice(0, 200) : '');
    throw new DnsProviderError(`DNSPod ${action}: ${said || `HTTP ${answer.status}`} (${parsed.status?.code ?? '?'})`);
  }
}
