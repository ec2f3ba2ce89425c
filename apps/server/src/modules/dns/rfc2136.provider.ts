import type { TargetGuard } from '../../platform/http/target-guard.js';
import {
  checkChanges,
  DNS_PROVIDER_TIMEOUT_MS,
  type DnsProvider,
  DnsProviderError,
  probeName,
  RECORD_TYPES,
  type RecordChange,
  type RecordSet,
  recordSet,
} from './dns-provider.js';
import { exchangeTcp } from './dns-tcp.js';
import {
  buildQuery,
  buildUpdate,
  parseMessage,
  RCODE_NAMES,
  randomId,
  signMessage,
  type TsigKey,
  TYPE_CODES,
  type UpdateOp,
  verifyResponse,
} from './dns-wire.js';

export interface Rfc2136Options {
  /** `host:port` of the primary server. */
  readonly server: string;
  readonly zone: string;
  readonly key: TsigKey;
  readonly timeoutMs?: number;
  /** Where the calls may go (platform/http/target-guard.ts). */
  readonly targets: TargetGuard;
}

/**
 * RFC 2136 dynamic updates signed with TSIG, to any standard primary (BIND, Knot, PowerDNS with
 * dnsupdate on, ...). Reads are plain queries to the same server (it is authoritative for the zone).
 * A record set change is one UPDATE: delete the set, then add its values, so the server applies
 * it atomically.
 */
export class Rfc2136Provider implements DnsProvider {
  readonly lines = ['default'] as const;
  readonly zone: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: Rfc2136Options) {
    this.zone = options.zone.toLowerCase();
    this.timeoutMs = options.timeoutMs ?? DNS_PROVIDER_TIMEOUT_MS;
  }

  async test(): Promise<string> {
    const soa = await this.query(this.zone, 'SOA');
    if (!soa.answers.some((rr) => rr.type === TYPE_CODES.SOA)) {
      throw new DnsProviderError(`${this.options.server} is not authoritative for ${this.zone}`);
    }
    const name = probeName(this.zone);
    await this.update([{ op: 'add', name, type: 'TXT', ttl: 60, value: `rampart-test ${Date.now()}` }]);
    await this.update([{ op: 'deleteSet', name, type: 'TXT' }]);
    return `zone ${this.zone} answered; TXT probe ${name} written and removed (TSIG ${this.options.key.name})`;
  }

  async listRecords(names: readonly string[]): Promise<RecordSet[]> {
    const sets: RecordSet[] = [];
    for (const name of names) {
      for (const type of RECORD_TYPES) {
        const answer = await this.query(name, type);
        const matching = answer.answers.filter((rr) => rr.name === name && rr.type === TYPE_CODES[type]);
        const [first] = matching;
        if (first === undefined) continue;
        sets.push(
          recordSet(
            name,
            type,
            first.ttl,
            matching.map((rr) => rr.value ?? ''),
          ),
        );
      }
    }
    return sets;
  }

  async applyChanges(changes: readonly RecordChange[]): Promise<void> {
    checkChanges(this, changes);
    for (const change of changes) {
      if (change.kind === 'delete') {
        await this.update([{ op: 'deleteSet', name: change.name, type: change.type }]);
        continue;
      }
      const { name, type, ttl, values } = change.set;
      await this.update([
        { op: 'deleteSet', name, type },
        ...values.map((value): UpdateOp => ({ op: 'add', name, type, ttl, value })),
      ]);
    }
  }

  private async query(name: string, type: (typeof RECORD_TYPES)[number] | 'SOA') {
    const id = randomId();
    const answer = parseMessage(
      await exchangeTcp(this.options.targets, this.options.server, buildQuery(id, name, type), this.timeoutMs),
    );
    if (answer.id !== id) throw new DnsProviderError(`${this.options.server}: answer to another query`);
    if (answer.rcode !== 0 && answer.rcode !== 3) {
      throw new DnsProviderError(
        `${this.options.server}: ${name} ${type}: ${RCODE_NAMES[answer.rcode] ?? answer.rcode}`,
      );
    }
    return answer;
  }

  private async update(ops: readonly UpdateOp[]): Promise<void> {
    const id = randomId();
    const { signed, mac } = signMessage(buildUpdate(id, this.zone, ops), this.options.key);
    const raw = await exchangeTcp(this.options.targets, this.options.server, signed, this.timeoutMs);
    const answer = parseMessage(raw);
    if (answer.id !== id) throw new DnsProviderError(`${this.options.server}: answer to another update`);
    const tsig = answer.additionals.at(-1);
    if (answer.rcode !== 0) {
      // A refused signature comes back unsigned with the TSIG error set: say which.
      if (tsig?.type === TYPE_CODES.TSIG) verifyResponse(raw, answer, this.options.key, mac);
      throw new DnsProviderError(`update of ${this.zone} refused: ${RCODE_NAMES[answer.rcode] ?? answer.rcode}`);
    }
    verifyResponse(raw, answer, this.options.key, mac);
  }
}
