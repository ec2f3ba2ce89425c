import type { AnyRoute, LogPushEvent, LogPushLog } from '@rampart/contract';
import {
  clientCreateLogPushEvent,
  clientDeleteLogPushEvents,
  clientListLogPushEvents,
  clientLogPushLogs,
  clientManualLogPush,
  clientUpdateLogPushEvent,
  LOG_PUSH_EVENTS_MAX,
  userCreateLogPushEvent,
  userDeleteLogPushEvents,
  userListLogPushEvents,
  userLogPushLogs,
  userManualLogPush,
  userTestLogPush,
  userUpdateLogPushEvent,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBatch } from '../src/modules/log-push/log-push.senders.js';
import { ANY_DESTINATION } from '../src/platform/http/outgoing.js';
import { TargetGuard, TargetRefusedError } from '../src/platform/http/target-guard.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import {
  bulkReceiver,
  hecReceiver,
  type Receiver,
  syslogTcpReceiver,
  syslogUdpReceiver,
  webhookReceiver,
} from './helpers/log-push-receivers.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Log push (routes/log-push.ts): events shipped through the real ingest path reach real receivers
// on loopback (webhook with HMAC and gzip, syslog over TCP and UDP, Elasticsearch _bulk and Splunk
// HEC stand-ins); a receiver down and back gets the missed records exactly once; late events are
// pushed; a batch dies after the bound; manual pushes; validation, quotas, isolation and the SSRF
// rule. Runs on both config stores and both analytics stores (the project decides which).

const SECRET = 'whsec-test-0123456789';
/** Delivery is fast here: the job looks every 50 ms, reads batches 50 ms after they are written, retries after 50–200 ms. */
const PUSH_CONFIG = {
  logPushTickMs: 50,
  logPushSettleMs: 50,
  logPushBackoffMs: { base: 50, max: 200 },
};

let t: TestApp;
let client: Token;
let rival: Token;
let zoneSub: Token;
let user: Token;
let neighbour: Token;
let siteId: number;
let domainId: number;
let neighbourSiteId: number;
let neighbourDomainId: number;
let rivalDomainId: number;
let a: JoinedNode;
let rivalNode: JoinedNode;
let zoneA: number;
const receivers: Receiver[] = [];

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);

let batchSerial = 0;
async function ship(node: JoinedNode, events: ReturnType<typeof edgeEvent>[], app = t) {
  batchSerial += 1;
  const res = await shipBatch(app.app, node, {
    batchId: `push${Date.now() % 1_000_000}-${batchSerial}`,
    dropped: 0,
    events,
  });
  expect(res.statusCode, res.body).toBe(200);
}
const shopEvent = (over: Partial<Parameters<typeof edgeEvent>[0]> = {}) =>
  edgeEvent({ time: Date.now() - 1000, domainId, host: 'www.push-shop.example', ...over });
const neighbourEvent = () =>
  edgeEvent({
    time: Date.now() - 1000,
    domainId: neighbourDomainId,
    host: 'www.push-next.example',
  });

async function until<T>(what: string, probe: () => T | Promise<T>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function create(who: Token, route: AnyRoute, body: Record<string, unknown>): Promise<LogPushEvent> {
  const res = await sendAs(t.app, who, route as typeof userCreateLogPushEvent, { body: body as never });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as LogPushEvent;
}
const webhook = (r: Receiver, extra: Record<string, unknown> = {}) => ({
  kind: 'webhook',
  url: `http://127.0.0.1:${r.port}/hook`,
  secret: SECRET,
  ...extra,
});
async function pushLogs(who: Token, query: Record<string, unknown> = {}, route: AnyRoute = userLogPushLogs) {
  const res = await sendAs(t.app, who, route as typeof userLogPushLogs, {
    query: { pageSize: 100, ...query } as never,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: LogPushLog[]; total: number };
}
async function remove(who: Token, ids: number[]) {
  const res = await as(who, userDeleteLogPushEvents, { body: { ids } });
  expect(res.statusCode, res.body).toBe(200);
}
const reqIds = (r: Receiver) => r.records.map((x) => String(x.reqID));
/** Each id exactly once. */
function once(r: Receiver, ids: string[]) {
  const got = reqIds(r);
  for (const id of ids)
    expect(
      got.filter((g) => g === id),
      id,
    ).toHaveLength(1);
}

beforeAll(async () => {
  t = await createTestApp({ config: PUSH_CONFIG });
  ({
    client,
    rival,
    zoneSub,
    user,
    neighbour,
    siteId,
    domainId,
    neighbourSiteId,
    neighbourDomainId,
    rivalDomainId,
    a,
    rivalNode,
  } = await analyticsTenants(t, {
    shop: 'www.push-shop.example',
    neighbour: 'www.push-next.example',
    rival: 'www.push-rival.example',
  }));
  const rows = await t.db.database.db.execute(`SELECT zone_id FROM nodes WHERE id = ${a.nodeId}`);
  zoneA = Number((rows as unknown as { rows: { zone_id: number | string }[] }).rows[0]?.zone_id);
}, 120_000);

afterAll(async () => {
  for (const r of receivers) await r.stop();
  await t?.close();
});

async function receiver(make: () => Promise<Receiver>): Promise<Receiver> {
  const r = await make();
  receivers.push(r);
  return r;
}

describe('webhook', () => {
  it("pushes the customer's records, signed and gzip, and survives a receiver outage exactly once", async () => {
    const hook = await receiver(() => webhookReceiver(SECRET, { name: 'X-Token', value: 'abc' }));
    const event = await create(user, userCreateLogPushEvent, {
      name: 'my hook',
      type: 'access',
      destination: webhook(hook, { headerName: 'X-Token', headerValue: 'abc' }),
    });
    expect(event).toMatchObject({ type: 'access', state: 'active', siteIDs: [], userID: expect.any(Number) });
    expect(event.destination).toEqual({
      kind: 'webhook',
      url: `http://127.0.0.1:${hook.port}/hook`,
      headerName: 'X-Token',
      hasSecret: true,
    });
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(JSON.stringify(event)).not.toContain('abc');
    // Nor does the audit log: the call's body and the row's changes have them redacted.
    const audited = await t.db.database.db.execute(
      `SELECT l.changes::text AS body, (SELECT string_agg(c.after::text, ' ') FROM audit_row_changes c WHERE c.tx_id = l.tx_id) AS rows
         FROM audit_logs l WHERE l.action = 'user.logPush.create' ORDER BY l.id DESC LIMIT 1`,
    );
    const audit = (audited as unknown as { rows: { body: string; rows: string | null }[] }).rows[0];
    expect(audit?.body).toContain('[redacted]');
    expect(`${audit?.body} ${audit?.rows}`).not.toContain(SECRET);
    expect(`${audit?.body} ${audit?.rows}`).not.toContain('"abc"');

    const first = [shopEvent(), shopEvent(), shopEvent()];
    await ship(a, [...first, neighbourEvent(), neighbourEvent()]);
    await until('the first records', () => hook.records.length >= 3);
    once(
      hook,
      first.map((e) => e.id),
    );
    expect(hook.records.every((r) => r.siteID === siteId)).toBe(true);

    // The receiver goes away: the batch is retried with backoff, then delivered once it is back.
    await hook.stop();
    const missed = [shopEvent(), shopEvent()];
    await ship(a, missed);
    const retrying = await until(
      'a retrying attempt',
      async () => (await pushLogs(user, { eventID: event.id, status: 'retrying' })).data[0],
    );
    expect(retrying).toMatchObject({ status: 'retrying', records: 2, manual: false });
    expect(retrying?.error).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));
    await hook.start();
    await until('the missed records', () => hook.records.length >= 5);
    // Spooled events a node sends late (old event times) come after the cursor: they are pushed.
    const late = [shopEvent({ time: Date.now() - 2 * 3600_000 })];
    await ship(a, late);
    await until('the late record', () => hook.records.length >= 6);
    await new Promise((r) => setTimeout(r, 300));
    once(
      hook,
      [...first, ...missed, ...late].map((e) => e.id),
    );
    expect(hook.records).toHaveLength(6);
    expect(hook.errors).toEqual([]);

    // The delivery rows are written after the receiver answered: read once they are all there.
    const delivered = async () =>
      (await pushLogs(user, { eventID: event.id })).data
        .filter((l) => l.status === 'delivered')
        .reduce((n, l) => n + l.records, 0);
    await until('the deliveries logged', async () => (await delivered()) >= 6);
    const log = await pushLogs(user, { eventID: event.id });
    expect(log.data.filter((l) => l.status === 'delivered').reduce((n, l) => n + l.records, 0)).toBe(6);
    expect(log.data[0]).toMatchObject({ eventID: event.id, eventName: 'my hook', status: 'delivered' });
    const listed = (await as(user, userListLogPushEvents, { query: {} })).json();
    expect(listed.data.find((e: LogPushEvent) => e.id === event.id)).toMatchObject({
      state: 'active',
      lastError: null,
    });

    // A manual push sends a time range again, through the same batches.
    const res = await as(user, userManualLogPush, {
      body: {
        id: event.id,
        startTime: new Date(Date.now() - 3 * 3600_000).toISOString(),
        endTime: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until('the manual push', () => hook.records.length >= 12);
    // Its delivery rows are written after the receiver answered: read once they are all there.
    const manualRecords = async () =>
      (await pushLogs(user, { eventID: event.id })).data.filter((l) => l.manual).reduce((n, l) => n + l.records, 0);
    await until('the manual push logged', async () => (await manualRecords()) >= 6);
    expect(await manualRecords()).toBe(6);
    await remove(user, [event.id]);
  });

  it('sends a test record on demand, and says why when the receiver refuses', async () => {
    const hook = await receiver(() => webhookReceiver(SECRET));
    const event = await create(user, userCreateLogPushEvent, {
      name: 'tested',
      type: 'waf',
      destination: webhook(hook),
    });
    const ok = await as(user, userTestLogPush, { body: { id: event.id } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ ok: true, error: null });
    expect(hook.records).toEqual([expect.objectContaining({ test: true, fwKind: 'waf' })]);
    hook.failWith = 401;
    const refused = (await as(user, userTestLogPush, { body: { id: event.id } })).json().data;
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('401') });
    expect((await pushLogs(user, { eventID: event.id })).total).toBe(0);
    expect((await as(neighbour, userTestLogPush, { body: { id: event.id } })).json().code).toBe(101018);
    await remove(user, [event.id]);
  });

  it('keeps write-only secrets across an update that leaves them out', async () => {
    const hook = await receiver(() => webhookReceiver(SECRET));
    const event = await create(user, userCreateLogPushEvent, {
      name: 'kept',
      type: 'access',
      destination: webhook(hook),
    });
    const res = await as(user, userUpdateLogPushEvent, {
      body: {
        id: event.id,
        name: 'kept renamed',
        type: 'access',
        destination: { kind: 'webhook', url: `http://127.0.0.1:${hook.port}/hook` },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'kept renamed', destination: { hasSecret: true } });
    const ev = shopEvent();
    await ship(a, [ev]);
    // The receiver checks the signature: the kept secret signed it.
    await until('the record', () => hook.records.length >= 1);
    expect(hook.errors).toEqual([]);
    await remove(user, [event.id]);
  });
});

describe('restart and the audit log', () => {
  it('resumes from the stored cursor after the job stops and starts again', async () => {
    const hook = await receiver(() => webhookReceiver(SECRET));
    const event = await create(user, userCreateLogPushEvent, {
      name: 'restart',
      type: 'access',
      destination: webhook(hook),
    });
    const before = [shopEvent()];
    await ship(a, before);
    await until('the first record', () => hook.records.length >= 1);
    // The job stops (a control plane going down) while events keep arriving; a new start has only
    // the database to go on: the cursor there.
    await t.app.rampart.logPushJob.stop();
    const during = [shopEvent(), shopEvent()];
    await ship(a, during);
    await new Promise((r) => setTimeout(r, 200));
    expect(hook.records).toHaveLength(1);
    t.app.rampart.logPushJob.start();
    await until('the records sent while stopped', () => hook.records.length >= 3);
    await new Promise((r) => setTimeout(r, 300));
    once(
      hook,
      [...before, ...during].map((e) => e.id),
    );
    expect(hook.records).toHaveLength(3);
    await remove(user, [event.id]);
  });

  it("pushes the account's own audit log", async () => {
    const hook = await receiver(() => webhookReceiver(SECRET));
    const event = await create(user, userCreateLogPushEvent, {
      name: 'audit',
      type: 'audit',
      destination: webhook(hook),
    });
    // A state-changing call of the account is an audit record.
    const other = await create(user, userCreateLogPushEvent, {
      name: 'audited',
      type: 'access',
      enabled: false,
      destination: { kind: 'webhook', url: 'https://203.0.113.10/' },
    });
    await until('the audit record', () => hook.records.some((r) => r.action === 'user.logPush.create'));
    // The neighbour's calls are not the user's audit log.
    const theirs = await create(neighbour, userCreateLogPushEvent, {
      name: 'theirs',
      type: 'access',
      enabled: false,
      destination: { kind: 'webhook', url: 'https://203.0.113.10/' },
    });
    await remove(user, [other.id]);
    await until('the delete', () => hook.records.some((r) => r.action === 'user.logPush.delete'));
    expect(hook.records.every((r) => r.accountName !== 'neighbour')).toBe(true);
    expect(hook.errors).toEqual([]);
    await remove(neighbour, [theirs.id]);
    await remove(user, [event.id]);
  });
});

describe('syslog, Elasticsearch and Splunk', () => {
  it('delivers RFC 5424 over TCP (octet counting) and UDP, _bulk and HEC', async () => {
    const tcp = await receiver(syslogTcpReceiver);
    const udp = await receiver(syslogUdpReceiver);
    const bulk = await receiver(() => bulkReceiver('rampart-logs', 'es-key-1'));
    const hec = await receiver(() => hecReceiver('hec-token-1'));
    const events = await Promise.all([
      create(user, userCreateLogPushEvent, {
        name: 'tcp',
        type: 'access',
        destination: { kind: 'syslog', host: '127.0.0.1', port: tcp.port, transport: 'tcp' },
      }),
      create(user, userCreateLogPushEvent, {
        name: 'udp',
        type: 'access',
        destination: { kind: 'syslog', host: '127.0.0.1', port: udp.port, transport: 'udp', appName: 'cdn' },
      }),
      create(user, userCreateLogPushEvent, {
        name: 'es',
        type: 'access',
        siteIDs: [siteId],
        destination: {
          kind: 'elasticsearch',
          url: `http://127.0.0.1:${bulk.port}`,
          index: 'rampart-logs',
          apiKey: 'es-key-1',
        },
      }),
      create(user, userCreateLogPushEvent, {
        name: 'hec',
        type: 'access',
        filters: { statusClasses: ['5xx'] },
        destination: { kind: 'splunk', url: `http://127.0.0.1:${hec.port}`, token: 'hec-token-1' },
      }),
    ]);
    const ok = [shopEvent(), shopEvent()];
    const failed = shopEvent({ status: 502 });
    await ship(a, [...ok, failed, neighbourEvent()]);
    const all = [...ok, failed].map((e) => e.id);
    await until('syslog tcp', () => tcp.records.length >= 3);
    await until('syslog udp', () => udp.records.length >= 3);
    await until('bulk', () => bulk.records.length >= 3);
    await until('hec', () => hec.records.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    for (const r of [tcp, udp, bulk]) {
      once(r, all);
      expect(r.records).toHaveLength(3);
      expect(r.errors).toEqual([]);
    }
    expect(reqIds(hec)).toEqual([failed.id]);
    expect(hec.errors).toEqual([]);

    // The TCP syslog receiver goes away and comes back on its port: the missed records arrive once.
    const tcpEvent = events[0] as LogPushEvent;
    await tcp.stop();
    const missed = [shopEvent(), shopEvent(), shopEvent()];
    await ship(a, missed);
    await until(
      'a retrying syslog attempt',
      async () => (await pushLogs(user, { eventID: tcpEvent.id, status: 'retrying' })).data.length > 0,
    );
    await tcp.start();
    await until('the missed syslog records', () => tcp.records.length >= 6);
    await new Promise((r) => setTimeout(r, 300));
    once(tcp, [...all, ...missed.map((e) => e.id)]);
    expect(tcp.records).toHaveLength(6);
    expect(tcp.errors).toEqual([]);
    await remove(
      user,
      events.map((e) => e.id),
    );
  });
});

describe('dead letter', () => {
  it('parks an event whose batch failed past the bound, and an update resends it', async () => {
    const small = await createTestApp({ config: { ...PUSH_CONFIG, logPushDeadAfterSeconds: 1 } });
    try {
      const tenants = await analyticsTenants(small, {
        shop: 'www.dead-shop.example',
        neighbour: 'www.dead-next.example',
        rival: 'www.dead-rival.example',
      });
      const hook = await receiver(() => webhookReceiver(SECRET));
      hook.failWith = 503;
      const res = await sendAs(small.app, tenants.user, userCreateLogPushEvent, {
        body: { name: 'dies', type: 'access', destination: webhook(hook) as never },
      });
      expect(res.statusCode, res.body).toBe(200);
      const event = res.json().data as LogPushEvent;
      const ev = edgeEvent({ time: Date.now() - 1000, domainId: tenants.domainId });
      await ship(tenants.a, [ev], small);
      const logs = async () =>
        (await sendAs(small.app, tenants.user, userLogPushLogs, { query: { eventID: event.id, pageSize: 100 } })).json()
          .data as LogPushLog[];
      const dead = await until('the dead batch', async () => (await logs()).find((l) => l.status === 'dead'));
      expect(dead).toMatchObject({ records: 1, status: 'dead' });
      expect(dead?.error).toContain('503');
      const listed = (await sendAs(small.app, tenants.user, userListLogPushEvents, { query: {} })).json()
        .data as LogPushEvent[];
      expect(listed[0]).toMatchObject({ id: event.id, state: 'dead' });
      // Parked: nothing more is tried.
      const attempts = (await logs()).length;
      await new Promise((r) => setTimeout(r, 400));
      expect((await logs()).length).toBe(attempts);
      // The receiver is fixed and the event updated: the dead batch goes again.
      hook.failWith = null;
      const up = await sendAs(small.app, tenants.user, userUpdateLogPushEvent, {
        body: { id: event.id, name: 'revived', type: 'access', destination: webhook(hook) as never },
      });
      expect(up.statusCode, up.body).toBe(200);
      await until('the resent record', () => hook.records.length >= 1);
      expect(reqIds(hook)).toEqual([ev.id]);
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('the operator', () => {
  it("pushes its zone's logs of every customer, and lists its customers' delivery logs", async () => {
    const hook = await receiver(() => webhookReceiver(SECRET));
    const event = await create(client, clientCreateLogPushEvent, {
      name: 'zone a',
      type: 'access',
      zoneIDs: [zoneA],
      destination: webhook(hook),
    });
    expect(event.zoneIDs).toEqual([zoneA]);
    const mine = [shopEvent(), neighbourEvent()];
    await ship(a, mine);
    await ship(rivalNode, [
      edgeEvent({
        time: Date.now() - 1000,
        domainId: rivalDomainId,
        host: 'www.push-rival.example',
      }),
    ]);
    await until('both customers', () => hook.records.length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    once(
      hook,
      mine.map((e) => e.id),
    );
    expect(hook.records).toHaveLength(2);
    const listed = (await as(client, clientListLogPushEvents, { query: {} })).json();
    expect(listed.data.map((e: LogPushEvent) => e.id)).toEqual([event.id]);
    expect((await as(rival, clientListLogPushEvents, { query: {} })).json().total).toBe(0);
    // Written after the receiver answered.
    await until(
      'the delivery logged',
      async () => (await pushLogs(client, { eventID: event.id }, clientLogPushLogs)).total > 0,
    );
    const clientLogs = await pushLogs(client, { eventID: event.id }, clientLogPushLogs);
    expect(clientLogs.total).toBeGreaterThan(0);
    expect((await pushLogs(rival, {}, clientLogPushLogs)).total).toBe(0);
    // A sub-account restricted to the other zone: "all zones" is its zones, zone a is not its to name.
    const subEvent = await create(zoneSub, clientCreateLogPushEvent, {
      name: 'sub',
      type: 'waf',
      destination: webhook(hook),
    });
    expect(subEvent.zoneIDs).toHaveLength(1);
    expect(subEvent.zoneIDs).not.toContain(zoneA);
    const outside = await sendAs(t.app, zoneSub, clientCreateLogPushEvent, {
      body: { name: 'x', type: 'access', zoneIDs: [zoneA], destination: webhook(hook) as never },
    });
    expect(outside.json().code).toBe(101018);
    // Another operator's zone is refused as an unknown one.
    const rivalZone = await sendAs(t.app, rival, clientCreateLogPushEvent, {
      body: { name: 'x', type: 'access', zoneIDs: [zoneA], destination: webhook(hook) as never },
    });
    expect(rivalZone.json().code).toBe(101018);
    // The restricted sub-account sees, edits, pushes and reads the delivery of its zones' events
    // only: the operator's zone-a event (and an all-zones one) is unknown to it, and its delivery
    // log holds none of their rows.
    const everyZone = await create(client, clientCreateLogPushEvent, {
      name: 'every zone',
      type: 'waf',
      destination: webhook(hook),
    });
    expect(everyZone.zoneIDs).toEqual([]);
    const subList = (await as(zoneSub, clientListLogPushEvents, { query: {} })).json();
    expect(subList.data.map((e: LogPushEvent) => e.id)).toEqual([subEvent.id]);
    expect(subList.total).toBe(1);
    const operatorList = (await as(client, clientListLogPushEvents, { query: {} })).json();
    expect(operatorList.data.map((e: LogPushEvent) => e.id).sort()).toEqual(
      [event.id, subEvent.id, everyZone.id].sort(),
    );
    for (const hidden of [event, everyZone]) {
      const edit = await sendAs(t.app, zoneSub, clientUpdateLogPushEvent, {
        body: { id: hidden.id, name: 'taken', type: 'access', destination: webhook(hook) as never },
      });
      expect(edit.json().code, edit.body).toBe(101018);
      const push = await sendAs(t.app, zoneSub, clientManualLogPush, {
        body: {
          id: hidden.id,
          startTime: new Date(Date.now() - 60_000).toISOString(),
          endTime: new Date().toISOString(),
        },
      });
      expect(push.json().code, push.body).toBe(101018);
      const drop = await sendAs(t.app, zoneSub, clientDeleteLogPushEvents, { body: { ids: [hidden.id] } });
      expect(drop.json().code, drop.body).toBe(101018);
    }
    expect(clientLogs.data.length).toBeGreaterThan(0);
    expect((await pushLogs(zoneSub, { eventID: event.id }, clientLogPushLogs)).total).toBe(0);
    expect(
      (await pushLogs(zoneSub, {}, clientLogPushLogs)).data.every(
        (r: { eventID: number }) => r.eventID === subEvent.id,
      ),
    ).toBe(true);
  });
});

describe('validation, quotas, isolation and SSRF', () => {
  const bad = async (body: Record<string, unknown>, field: string) => {
    const res = await sendAs(t.app, user, userCreateLogPushEvent, {
      body: { name: 'bad', type: 'access', ...body } as never,
    });
    expect(res.json().code, res.body).toBe(101003);
    expect(JSON.stringify(res.json().extra)).toContain(field);
  };

  it('refuses malformed destinations and scopes', async () => {
    await bad({ destination: { kind: 'webhook', url: 'ftp://example.com/x' } }, 'destination.url');
    await bad({ destination: { kind: 'webhook', url: 'https://user:pw@example.com/' } }, 'destination.url');
    await bad({ destination: { kind: 'webhook', url: 'https://example.com/a\r\nb' } }, 'destination.url');
    await bad(
      { destination: { kind: 'webhook', url: 'https://example.com/', headerName: 'X-A', headerValue: 'a\r\nX-B: 1' } },
      'destination.headerValue',
    );
    await bad(
      { destination: { kind: 'webhook', url: 'https://example.com/', headerName: 'Host', headerValue: 'x' } },
      'destination.headerName',
    );
    await bad(
      { destination: { kind: 'webhook', url: 'https://example.com/', headerName: 'X A', headerValue: 'x' } },
      'destination.headerName',
    );
    await bad(
      { destination: { kind: 'syslog', host: 'logs.example.com', port: 0, transport: 'tcp' } },
      'destination.port',
    );
    await bad({ destination: { kind: 'syslog', host: 'bad host', port: 514, transport: 'tcp' } }, 'destination.host');
    await bad(
      { destination: { kind: 'syslog', host: 'logs.example.com', port: 514, transport: 'sctp' } },
      'destination.transport',
    );
    await bad(
      { destination: { kind: 'elasticsearch', url: 'https://es.example.com', index: 'Bad Index' } },
      'destination.index',
    );
    await bad(
      { destination: { kind: 'splunk', url: 'https://splunk.example.com', token: 'a b' } },
      'destination.token',
    );
    await bad(
      { type: 'audit', siteIDs: [siteId], destination: { kind: 'webhook', url: 'https://example.com/' } },
      'type',
    );
    await bad(
      { filters: { methods: ['get'] }, destination: { kind: 'webhook', url: 'https://example.com/' } },
      'filters.methods',
    );
    const range = await as(user, userManualLogPush, {
      body: { id: 1, startTime: '2026-01-01T00:00:00Z', endTime: '2026-03-01T00:00:00Z' },
    });
    expect(range.json().code).toBe(101003);
  });

  it('holds each account to LOG_PUSH_EVENTS_MAX events (101029)', async () => {
    const ids: number[] = [];
    const existing = (await as(neighbour, userListLogPushEvents, { query: {} })).json().total as number;
    for (let i = existing; i < LOG_PUSH_EVENTS_MAX; i++) {
      ids.push(
        (
          await create(neighbour, userCreateLogPushEvent, {
            name: `n${i}`,
            type: 'access',
            enabled: false,
            destination: { kind: 'webhook', url: 'https://203.0.113.10/hook' },
          })
        ).id,
      );
    }
    const over = await as(neighbour, userCreateLogPushEvent, {
      body: { name: 'one more', type: 'access', destination: { kind: 'webhook', url: 'https://203.0.113.10/hook' } },
    });
    expect(over.json()).toMatchObject({ code: 101029, extra: { max: LOG_PUSH_EVENTS_MAX } });
    await sendAs(t.app, neighbour, userDeleteLogPushEvents, { body: { ids } });
  });

  it("answers another account's ids, sites and logs as unknown ones", async () => {
    const mine = await create(user, userCreateLogPushEvent, {
      name: 'private',
      type: 'waf',
      enabled: false,
      destination: { kind: 'webhook', url: 'https://203.0.113.10/hook', secret: SECRET },
    });
    const update = await as(neighbour, userUpdateLogPushEvent, {
      body: {
        id: mine.id,
        name: 'hijack',
        type: 'access',
        destination: { kind: 'webhook', url: 'https://203.0.113.11/' },
      },
    });
    expect(update.json().code).toBe(101018);
    expect((await as(neighbour, userDeleteLogPushEvents, { body: { ids: [mine.id] } })).json().code).toBe(101018);
    const manual = await as(neighbour, userManualLogPush, {
      body: {
        id: mine.id,
        startTime: new Date(Date.now() - 3600_000).toISOString(),
        endTime: new Date().toISOString(),
      },
    });
    expect(manual.json().code).toBe(101018);
    const site = await as(neighbour, userCreateLogPushEvent, {
      body: {
        name: 'x',
        type: 'access',
        siteIDs: [siteId],
        destination: { kind: 'webhook', url: 'https://203.0.113.10/' },
      },
    });
    expect(site.json().code).toBe(101018);
    expect(
      (await as(neighbour, userListLogPushEvents, { query: {} })).json().data.map((e: LogPushEvent) => e.id),
    ).not.toContain(mine.id);
    expect((await pushLogs(neighbour, { eventID: mine.id })).total).toBe(0);
    // The neighbour's own site is fine.
    const own = await create(neighbour, userCreateLogPushEvent, {
      name: 'own',
      type: 'access',
      enabled: false,
      siteIDs: [neighbourSiteId],
      destination: { kind: 'webhook', url: 'https://203.0.113.10/' },
    });
    await remove(neighbour, [own.id]);
    await remove(user, [mine.id]);
  });

  it('refuses loopback and private destinations unless the installation allowed them', async () => {
    const strict = await createTestApp({ config: { allowPrivateTargets: false } });
    try {
      const token = await (await import('./helpers/auth.js')).signIn(strict.app, 'user');
      for (const destination of [
        { kind: 'webhook', url: 'http://127.0.0.1:8080/hook' },
        { kind: 'syslog', host: '10.1.2.3', port: 514, transport: 'udp' },
        { kind: 'elasticsearch', url: 'http://[::1]:9200', index: 'x' },
        { kind: 'splunk', url: 'http://169.254.169.254', token: 't' },
        { kind: 'webhook', url: 'http://localhost:8080/hook' },
      ]) {
        const res = await sendAs(strict.app, token, userCreateLogPushEvent, {
          body: { name: 'ssrf', type: 'access', destination: destination as never },
        });
        expect(res.json().code, JSON.stringify(destination)).toBe(101003);
        expect(JSON.stringify(res.json().extra)).toContain('targetNotAllowed');
      }
    } finally {
      await strict.close();
    }
    // At send time too (a name that resolved elsewhere when it was saved): nothing is sent.
    const hook = await receiver(() => webhookReceiver(SECRET));
    await expect(
      sendBatch(
        { kind: 'webhook', url: `http://localhost:${hook.port}/hook`, secret: SECRET },
        { type: 'access', records: [{ a: 1 }], ids: [null], times: [Date.now()], hosts: [''] },
        { targets: new TargetGuard(false), check: ANY_DESTINATION, connectTimeoutMs: 1000, requestTimeoutMs: 2000 },
        Date.now(),
      ),
    ).rejects.toThrow(TargetRefusedError);
    expect(hook.deliveries).toBe(0);
  });
});
