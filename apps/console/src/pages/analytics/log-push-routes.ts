import {
  clientCreateLogPushEvent,
  clientDeleteLogPushEvents,
  clientListLogPushEvents,
  clientLogPushLogs,
  clientManualLogPush,
  clientTestLogPush,
  clientUpdateLogPushEvent,
  type LogPushDestination,
  type LogPushEvent,
  type LogPushKind,
  userCreateLogPushEvent,
  userDeleteLogPushEvents,
  userListLogPushEvents,
  userLogPushLogs,
  userManualLogPush,
  userTestLogPush,
  userUpdateLogPushEvent,
} from '@rampart/contract';

export type PushTier = 'user' | 'client';

/**
 * The log push routes of a console, typed as the operator's (the customer's differ only in
 * `siteIDs` for `zoneIDs` and the delivery log's `userID`, which its page never sends), as the log
 * search's routes are.
 */
export function pushRoutes(tier: PushTier) {
  if (tier === 'client') {
    return {
      list: clientListLogPushEvents,
      create: clientCreateLogPushEvent,
      update: clientUpdateLogPushEvent,
      remove: clientDeleteLogPushEvents,
      manual: clientManualLogPush,
      test: clientTestLogPush,
      logs: clientLogPushLogs,
    };
  }
  return {
    list: userListLogPushEvents as unknown as typeof clientListLogPushEvents,
    create: userCreateLogPushEvent as unknown as typeof clientCreateLogPushEvent,
    update: userUpdateLogPushEvent as unknown as typeof clientUpdateLogPushEvent,
    remove: userDeleteLogPushEvents as unknown as typeof clientDeleteLogPushEvents,
    manual: userManualLogPush as unknown as typeof clientManualLogPush,
    test: userTestLogPush as unknown as typeof clientTestLogPush,
    logs: userLogPushLogs as unknown as typeof clientLogPushLogs,
  };
}

/** The body field of an event's scope: the customer's sites or the operator's zones. */
export function scopeField(tier: PushTier): 'siteIDs' | 'zoneIDs' {
  return tier === 'user' ? 'siteIDs' : 'zoneIDs';
}

/** The fields each destination kind is given (secrets last), in the order the form shows them. */
export const DESTINATION_FIELDS: Readonly<Record<LogPushKind, readonly string[]>> = {
  webhook: ['url', 'headerName', 'headerValue', 'secret'],
  syslog: ['host', 'port', 'transport', 'appName'],
  elasticsearch: ['url', 'index', 'username', 'password', 'apiKey'],
  splunk: ['url', 'index', 'sourcetype', 'token'],
};

/** The write-only fields of each kind: empty on edit keeps the stored value. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['headerValue', 'secret', 'password', 'apiKey', 'token']);

/** A destination in one line: kind, then where (`syslog tls logs.example.com:6514`). */
export function destinationSummary(d: LogPushDestination, kindLabel: string): string {
  switch (d.kind) {
    case 'syslog':
      return `${kindLabel} ${d.transport} ${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}`;
    case 'elasticsearch':
      return `${kindLabel} ${d.url} ${d.index}`;
    default:
      return `${kindLabel} ${d.url}`;
  }
}

/** The event's update body with only `change` different (secrets left out: the stored ones are kept). */
export function updateBodyOf(event: LogPushEvent, tier: PushTier, change: Partial<Pick<LogPushEvent, 'enabled'>>) {
  const { hasSecret: _secret, ...destination } = event.destination;
  const kept = Object.fromEntries(Object.entries(destination).filter(([, value]) => value !== null));
  return {
    id: event.id,
    name: event.name,
    enabled: event.enabled,
    type: event.type,
    [scopeField(tier)]: tier === 'user' ? event.siteIDs : event.zoneIDs,
    filters: event.filters,
    destination: kept,
    ...change,
  };
}
