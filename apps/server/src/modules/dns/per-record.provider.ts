import {
  canonicalValue,
  checkChanges,
  type DnsProvider,
  RECORD_TYPES,
  type RecordChange,
  type RecordSet,
  type RecordType,
  recordSet,
} from './dns-provider.js';

/** One record as a hosted DNS API holds it (one value each, with its own id). */
export interface HostedRecord {
  readonly id: string;
  readonly name: string;
  readonly type: RecordType;
  readonly line: string;
  readonly ttl: number;
  readonly value: string;
}

/**
 * The record sets of the interface over hosted APIs that keep one record per value (Cloudflare,
 * DNSPod): a set is replaced by removing the records whose value is no longer wanted, correcting
 * the TTL of the ones kept and creating the missing ones, so a value that stays never disappears
 * from the zone in between.
 */
export abstract class PerRecordProvider implements DnsProvider {
  abstract readonly zone: string;
  abstract readonly lines: readonly string[];
  abstract test(): Promise<string>;
  /** The A/AAAA/CNAME/TXT records under `name` (every line). */
  protected abstract recordsOf(name: string): Promise<HostedRecord[]>;
  protected abstract create(record: Omit<HostedRecord, 'id'>): Promise<void>;
  protected abstract update(record: HostedRecord): Promise<void>;
  protected abstract remove(record: HostedRecord): Promise<void>;

  async listRecords(names: readonly string[]): Promise<RecordSet[]> {
    const sets: RecordSet[] = [];
    for (const name of names) {
      const records = await this.recordsOf(name);
      const groups = new Map<string, HostedRecord[]>();
      for (const record of records) {
        const key = `${RECORD_TYPES.indexOf(record.type)}\u0000${record.line}`;
        groups.set(key, [...(groups.get(key) ?? []), record]);
      }
      for (const key of [...groups.keys()].sort()) {
        const group = groups.get(key) ?? [];
        const [first] = group;
        if (first) {
          sets.push(
            recordSet(
              name,
              first.type,
              first.ttl,
              group.map((r) => r.value),
              first.line,
            ),
          );
        }
      }
    }
    return sets;
  }

  async applyChanges(changes: readonly RecordChange[]): Promise<void> {
    checkChanges(this, changes);
    for (const change of changes) {
      const { name, type, line } = change.kind === 'upsert' ? change.set : change;
      const held = (await this.recordsOf(name)).filter((r) => r.type === type && r.line === line);
      const wanted = change.kind === 'upsert' ? change.set.values : [];
      for (const record of held) {
        if (!wanted.includes(canonicalValue(type, record.value))) await this.remove(record);
      }
      if (change.kind === 'delete') continue;
      const { ttl } = change.set;
      for (const value of wanted) {
        const same = held.find((r) => canonicalValue(type, r.value) === value);
        if (!same) await this.create({ name, type, line, ttl, value });
        else if (same.ttl !== ttl) await this.update({ ...same, ttl });
      }
    }
  }
}
