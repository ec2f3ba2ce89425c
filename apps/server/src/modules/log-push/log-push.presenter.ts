import type { LogPushDestination, LogPushDestinationIn, LogPushEvent, LogPushLog } from '@rampart/contract';
import type { LogPushEventRow, LogPushLogRow } from './log-push.repository.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The secrets of a destination (write-only), by kind. */
export type DestinationSecrets = Partial<Record<'headerValue' | 'secret' | 'password' | 'apiKey' | 'token', string>>;
const SECRET_FIELDS = ['headerValue', 'secret', 'password', 'apiKey', 'token'] as const;

/** A destination split into what answers may show (stored as is) and its secrets (sealed). */
export function splitDestination(d: LogPushDestinationIn): {
  shown: Omit<LogPushDestination, 'hasSecret'>;
  secrets: DestinationSecrets;
} {
  const shown: Record<string, unknown> = {};
  const secrets: DestinationSecrets = {};
  for (const [k, v] of Object.entries(d)) {
    if (v === undefined) continue;
    if ((SECRET_FIELDS as readonly string[]).includes(k)) secrets[k as (typeof SECRET_FIELDS)[number]] = String(v);
    else shown[k] = v;
  }
  return { shown: shown as Omit<LogPushDestination, 'hasSecret'>, secrets };
}

/** The destination as answers show it: no secret, `hasSecret` whether one is stored. */
function presentDestination(row: LogPushEventRow): LogPushDestination {
  const d = row.destination as Record<string, unknown>;
  const hasSecret = row.secrets !== null;
  switch (d.kind) {
    case 'webhook':
      return { kind: 'webhook', url: String(d.url), headerName: (d.headerName as string) ?? null, hasSecret };
    case 'syslog':
      return {
        kind: 'syslog',
        host: String(d.host),
        port: Number(d.port),
        transport: d.transport as 'tcp' | 'tls' | 'udp',
        appName: String(d.appName ?? 'rampart'),
        hasSecret,
      };
    case 'elasticsearch':
      return {
        kind: 'elasticsearch',
        url: String(d.url),
        index: String(d.index),
        username: (d.username as string) ?? null,
        hasSecret,
      };
    default:
      return {
        kind: 'splunk',
        url: String(d.url),
        index: (d.index as string) ?? null,
        sourcetype: (d.sourcetype as string) ?? null,
        hasSecret,
      };
  }
}

export function presentLogPushEvent(row: LogPushEventRow): LogPushEvent {
  return {
    id: row.id,
    userID: row.accountId,
    name: row.name,
    enabled: row.enabled,
    type: row.type,
    siteIDs: row.siteIds,
    zoneIDs: row.zoneIds,
    filters: row.filters,
    destination: presentDestination(row),
    state: row.state,
    lastError: row.lastError,
    lastDeliveredAt: iso(row.lastDeliveredAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentLogPushLog(row: LogPushLogRow): LogPushLog {
  return {
    id: row.id,
    eventID: row.eventId,
    userID: row.accountId,
    eventName: row.eventName,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    attempt: row.attempt,
    records: row.records,
    bytes: row.bytes,
    error: row.error,
    rangeStart: iso(row.rangeStart),
    rangeEnd: iso(row.rangeEnd),
    manual: row.manual,
  };
}
