import type { TargetGuard } from '../../platform/http/target-guard.js';
import {
  canonicalName,
  checkChanges,
  DNS_PROVIDER_TIMEOUT_MS,
  type DnsProvider,
  DnsProviderError,
  probeName,
  RECORD_TYPES,
  type RecordChange,
  type RecordSet,
  type RecordType,
  recordSet,
} from './dns-provider.js';
import { errorText, providerCall } from './provider-http.js';

export interface PowerDnsOptions {
  /** The API's base URL (`http://host:8081`); calls go to `<apiUrl>/api/v1/servers/<serverId>/...`. */
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly serverId: string;
  readonly zone: string;
  readonly timeoutMs?: number;
  /** Where the calls may go (platform/http/target-guard.ts). */
  readonly targets: TargetGuard;
}

interface PdnsRrset {
  name: string;
  type: string;
  ttl: number;
  records: { content: string; disabled: boolean }[];
}

/** A value as PowerDNS writes it in `content` (names absolute with a dot, TXT quoted). */
function toContent(type: RecordType, value: string): string {
  if (type === 'CNAME') return `${value}.`;
  if (type === 'TXT') return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return value;
}

function fromContent(type: RecordType, content: string): string {
  if (type !== 'TXT') return content;
  // One or more quoted strings, concatenated (RFC 1035 §5.1 escapes).
  const parts = [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    (m[1] ?? '').replace(/\\(\d{3}|.)/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(Number(e)) : e)),
  );
  return parts.length > 0 ? parts.join('') : content;
}

/**
 * PowerDNS Authoritative over its HTTP API (v1): the zone is read with GET, changes are one
 * PATCH of rrsets (REPLACE or DELETE), which PowerDNS applies in one transaction and after which
 * it purges its caches of the zone.
 */
export class PowerDnsProvider implements DnsProvider {
  readonly lines = ['default'] as const;
  readonly zone: string;
  private readonly timeoutMs: number;
  private readonly zoneUrl: string;

  constructor(private readonly options: PowerDnsOptions) {
    this.zone = options.zone.toLowerCase();
    this.timeoutMs = options.timeoutMs ?? DNS_PROVIDER_TIMEOUT_MS;
    const base = options.apiUrl.replace(/\/+$/, '');
    this.zoneUrl = `${base}/api/v1/servers/${encodeURIComponent(options.serverId)}/zones/${encodeURIComponent(`${this.zone}.`)}`;
  }

  async test(): Promise<string> {
    await this.zoneRrsets();
    const name = probeName(this.zone);
    await this.patch([{ kind: 'upsert', set: recordSet(name, 'TXT', 60, [`rampart-test ${Date.now()}`]) }]);
    await this.patch([{ kind: 'delete', name, type: 'TXT', line: 'default' }]);
    return `zone ${this.zone} readable; TXT probe ${name} written and removed`;
  }

  async listRecords(names: readonly string[]): Promise<RecordSet[]> {
    const wanted = new Set(names.map(canonicalName));
    const sets: RecordSet[] = [];
    for (const rrset of await this.zoneRrsets()) {
      const name = canonicalName(rrset.name);
      const type = rrset.type as RecordType;
      if (!wanted.has(name) || !RECORD_TYPES.includes(type)) continue;
      const values = rrset.records.filter((r) => !r.disabled).map((r) => fromContent(type, r.content));
      if (values.length > 0) sets.push(recordSet(name, type, rrset.ttl, values));
    }
    const order = [...wanted];
    return sets.sort(
      (a, b) =>
        order.indexOf(a.name) - order.indexOf(b.name) || RECORD_TYPES.indexOf(a.type) - RECORD_TYPES.indexOf(b.type),
    );
  }

  async applyChanges(changes: readonly RecordChange[]): Promise<void> {
    checkChanges(this, changes);
    if (changes.length > 0) await this.patch(changes);
  }

  private headers(): Record<string, string> {
    return { 'X-API-Key': this.options.apiKey, Accept: 'application/json', 'Content-Type': 'application/json' };
  }

  private async zoneRrsets(): Promise<PdnsRrset[]> {
    const answer = await providerCall(this.options.targets, this.zoneUrl, { headers: this.headers() }, this.timeoutMs);
    if (answer.status !== 200) throw new DnsProviderError(`PowerDNS ${answer.status}: ${errorText(answer.body)}`);
    const rrsets = (answer.body as { rrsets?: PdnsRrset[] } | null)?.rrsets;
    if (!Array.isArray(rrsets)) throw new DnsProviderError('PowerDNS answered without the zone’s rrsets');
    return rrsets;
  }

  private async patch(changes: readonly RecordChange[]): Promise<void> {
    const rrsets = changes.map((change) =>
      change.kind === 'delete'
        ? { name: `${change.name}.`, type: change.type, changetype: 'DELETE' }
        : {
            name: `${change.set.name}.`,
            type: change.set.type,
            ttl: change.set.ttl,
            changetype: 'REPLACE',
            records: change.set.values.map((v) => ({ content: toContent(change.set.type, v), disabled: false })),
          },
    );
    const answer = await providerCall(
      this.options.targets,
      this.zoneUrl,
      { method: 'PATCH', headers: this.headers(), body: JSON.stringify({ rrsets }) },
      this.timeoutMs,
    );
    if (answer.status !== 204 && answer.status !== 200) {
      throw new DnsProviderError(`PowerDNS ${answer.status}: ${errorText(answer.body)}`);
    }
  }
}
