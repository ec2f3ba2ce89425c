import {
  ALL_ROUTES,
  type AnyRoute,
  type AuditRecord,
  createApiToken,
  createZone,
  deleteZone,
  getSelf,
  listAuditLogs,
  listUserSites,
  listZones,
  metaZones,
  type RouteInput,
  searchAuditLogs,
  setZoneHttp2,
  switchUser,
  type Tier,
  updateSelf,
  updateZone,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAudited, READ_ONLY_ROUTES } from '../src/modules/audit/audit.service.js';
import { OUTSIDE_TRANSACTION_ROUTES } from '../src/platform/http/bind-route.js';
import { addAccount, giveRole, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, rawRequest, type SendOptions, send } from './helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

let t: TestApp;
type Tokens = { accessToken: string };
let admin: Tokens;
let client: Tokens;
let user: Tokens;
let rival: Tokens;
let clientId: number;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, 'admin');
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  rival = await signInOtherOperator(t.app);
  clientId = (await send(t.app, getSelf, { params: { auth: 'client' } }, { token: client })).json().data.id;
  userId = (await send(t.app, getSelf, { params: { auth: 'user' } }, { token: user })).json().data.id;
});
afterAll(async () => t.close());

const call = <R extends AnyRoute>(tokens: Tokens, route: R, ...[input, reqId]: CallArgs<R, string>) =>
  send(
    t.app,
    route,
    ...([input, { token: tokens, headers: reqId ? { 'x-request-id': reqId } : {} }] as CallArgs<R, SendOptions>),
  );

async function records(
  tokens: Tokens,
  tier: Tier,
  query: RouteInput<typeof listAuditLogs>['query'] = {},
): Promise<{ data: AuditRecord[]; total: number }> {
  const res = await call(tokens, listAuditLogs, { params: { auth: tier }, query: { pageSize: 100, ...query } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('audit log', () => {
  it('records a successful write with actor, target, body, IP, request id and outcome', async () => {
    const created = await call(client, createZone, { body: { name: 'Audited', memo: 'm' } }, 'req-audit-zone-1');
    expect(created.statusCode).toBe(200);
    const zoneId = created.json().data.id;
    await call(client, listZones);
    const { data } = await records(client, 'client', { reqID: 'req-audit-zone-1' });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      accountID: clientId,
      accountName: 'client',
      tier: 'client',
      realAccountID: null,
      action: 'client.zone.create',
      method: 'POST',
      url: '/api/v1/client/zone',
      changes: { name: 'Audited', memo: 'm' },
      ip: '127.0.0.1',
      reqID: 'req-audit-zone-1',
      status: 200,
      code: 0,
      pending: false,
    });
    // A zone's own settings call carries its id in the path: the target.
    await call(client, setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: false } }, 'req-audit-zone-2');
    const [setting] = (await records(client, 'client', { reqID: 'req-audit-zone-2' })).data;
    expect(setting?.target).toEqual({ zoneID: zoneId });
  });

  it('records a refused write with its error code, and no GET at all', async () => {
    await call(client, createZone, { body: { name: 'Twice' } });
    const dup = await call(client, createZone, { body: { name: 'Twice' } }, 'req-audit-dup');
    expect(dup.json().code).toBe(201002);
    const [row] = (await records(client, 'client', { reqID: 'req-audit-dup' })).data;
    expect(row).toMatchObject({ status: 409, code: 201002, pending: false });
    const all = await records(client, 'client', { method: 'GET' });
    expect(all.total).toBe(0);
  });

  it('redacts secret-named keys at any depth and cuts long strings in the row changes (audit_redact)', async () => {
    const value = {
      name: 'kept',
      proof_token: 'tok',
      private_key: null,
      nested: { secret: 's', list: [1, { key: 'k', keys: 2 }, 'x'.repeat(600)] },
      long: 'y'.repeat(600),
      empty: {},
      none: [],
    };
    const rows = (await t.db.database.db.execute(
      sql`SELECT audit_redact(${JSON.stringify(value)}::jsonb) AS r`,
    )) as unknown as { rows: { r: unknown }[] };
    const r = rows.rows[0]?.r;
    expect(typeof r === 'string' ? JSON.parse(r) : r).toEqual({
      name: 'kept',
      proof_token: '[redacted]',
      private_key: null,
      nested: { secret: '[redacted]', list: [1, { key: '[redacted]', keys: 2 }, `${'x'.repeat(512)}…`] },
      long: `${'y'.repeat(512)}…`,
      empty: {},
      none: [],
    });
  });

  it('keeps what each call changed, row by row, before and after, with secrets redacted', async () => {
    const zone = (await call(client, createZone, { body: { name: 'Rows', memo: 'first' } }, 'req-rows-1')).json().data;
    const [created] = (await records(client, 'client', { reqID: 'req-rows-1' })).data;
    const insert = created?.rowChanges.find((c) => c.table === 'zones');
    expect(insert).toMatchObject({ op: 'insert', id: String(zone.id), before: null });
    expect(insert?.after).toMatchObject({ name: 'Rows', memo: 'first', owner_id: clientId });
    // The zone's default listen ports were written by the same call.
    expect(created?.rowChanges.filter((c) => c.table === 'zone_ports').length).toBeGreaterThan(0);

    await call(client, updateZone, { body: { id: zone.id, name: 'Rows', memo: 'second' } }, 'req-rows-2');
    const [renamed] = (await records(client, 'client', { reqID: 'req-rows-2' })).data;
    // Only the changed column, not the unchanged name nor the update time.
    expect(renamed?.rowChanges).toEqual([
      { table: 'zones', op: 'update', id: String(zone.id), before: { memo: 'first' }, after: { memo: 'second' } },
    ]);

    await call(client, deleteZone, { body: { id: zone.id } }, 'req-rows-3');
    const [deleted] = (await records(client, 'client', { reqID: 'req-rows-3' })).data;
    const removed = deleted?.rowChanges.find((c) => c.table === 'zones');
    expect(removed).toMatchObject({ op: 'delete', after: null });
    expect(removed?.before).toMatchObject({ name: 'Rows', memo: 'second' });

    // An API token's hash never reaches the log.
    await call(
      user,
      createApiToken,
      { params: { auth: 'user' }, body: { name: 'rows-token', lifetime: 600 } },
      'req-rows-4',
    );
    const [token] = (await records(user, 'user', { reqID: 'req-rows-4' })).data;
    const tokenRow = token?.rowChanges.find((c) => c.table === 'api_tokens');
    expect(tokenRow?.after).toMatchObject({ name: 'rows-token', token_hash: '[redacted]' });
    expect(JSON.stringify(token)).not.toMatch(/[0-9a-f]{64}/);
  });

  it('captures nothing for writes made outside an audited call, and covers every table but the listed ones', async () => {
    const raw = t.db.database.db;
    const count = async () =>
      Number(
        (
          (await raw.execute(sql`SELECT count(*)::int AS n FROM audit_row_changes`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]?.n,
      );
    const before = await count();
    await raw.execute(sql`UPDATE zones SET memo = memo || '.' WHERE owner_id = ${clientId}`);
    expect(await count()).toBe(before);
    const uncovered = (await raw.execute(sql`
      SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'
        AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'audit_row_change')
      ORDER BY 1`)) as unknown as { rows: { name: string }[] };
    // A new table gets the trigger in its migration, or joins this list with a reason.
    expect(uncovered.rows.map((r) => r.name)).toEqual([
      // Alerts and their deliveries: raised and delivered by the control plane, not by a person.
      'alert_deliveries',
      'alerts',
      'audit_logs',
      'audit_row_changes',
      'auth_sessions',
      'auth_tickets',
      // Written by the nodes' reports, not by a person (an attack would flood the log); unblocking is an audited call.
      'blocked_ips',
      // The data plane's entries, change log and dirty marks: written by triggers and the entry builder.
      'dp_changes',
      'dp_dirty_domains',
      'dp_dirty_membership',
      'dp_dirty_sites',
      'dp_entries',
      'dp_nodes_version',
      'dp_plane_changes',
      'dp_plane_versions',
      'dp_planes',
      'dp_site_parts',
      'dp_state',
      // Content-addressed files (geo and ASN databases, log exports): written by audited calls and the
      // export job, whose records name the use; the bytes themselves have no place in the log.
      'file_blob_chunks',
      'file_blob_refs',
      'file_blobs',
      // The log push job's delivery log: written by the job, not by a person.
      'log_push_logs',
      // The log sampling's rates per site and minute: written as the nodes' events arrive, not by a person.
      'log_samples',
      'monitor_events',
      'monitor_probe_states',
      'node_upgrade_logs',
      'operator_logo_images',
      'password_tokens',
      'refresh_tokens',
      // Wrong second-factor codes, counted by the credential guard: no person writes them.
      'second_factor_failures',
    ]);
  });

  it('commits a change and its record together: when the record cannot be completed, the change is undone', async () => {
    const raw = t.db.database.db;
    // The record of one zone's creation can be inserted but not completed.
    await raw.execute(sql`
      CREATE FUNCTION audit_refuse_completion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.changes->>'name' = 'Half written' AND NOT NEW.pending THEN
          RAISE EXCEPTION 'audit record refused';
        END IF;
        RETURN NEW;
      END $$`);
    await raw.execute(
      sql`CREATE TRIGGER audit_refuse_completion BEFORE UPDATE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_refuse_completion()`,
    );
    try {
      const res = await call(client, createZone, { body: { name: 'Half written' } }, 'req-audit-atomic');
      expect(res.statusCode).toBe(500);
      // No zone without its record, and no record of a change that did not happen.
      const zones = (await call(client, metaZones)).json().data as { name: string }[];
      expect(zones.map((z) => z.name)).not.toContain('Half written');
      expect((await records(client, 'client', { reqID: 'req-audit-atomic' })).data.filter((r) => !r.pending)).toEqual(
        [],
      );
    } finally {
      await raw.execute(sql`DROP TRIGGER audit_refuse_completion ON audit_logs`);
      await raw.execute(sql`DROP FUNCTION audit_refuse_completion()`);
    }
    // The same call goes through once the record can be written.
    expect((await call(client, createZone, { body: { name: 'Half written' } })).statusCode).toBe(200);
  });

  it('records an authorization denial of a write, visible to the account above', async () => {
    const subId = await addAccount(t.app, 'user', 'audit-denied', userId);
    const sub = await signIn(t.app, 'user', 'audit-denied');
    const denied = await call(
      sub,
      createApiToken,
      { params: { auth: 'user' }, body: { name: 'nope', lifetime: 600 } },
      'req-audit-denied',
    );
    expect(denied.json().code).toBe(101018);
    const [row] = (await records(user, 'user', { reqID: 'req-audit-denied' })).data;
    expect(row).toMatchObject({
      accountID: subId,
      url: '/api/v1/user/apiToken',
      changes: { name: 'nope', lifetime: 600 },
      status: 403,
      code: 101018,
      pending: false,
      rowChanges: [],
    });
    // A denied read is not a change and is not recorded.
    expect((await call(sub, listUserSites, undefined, 'req-audit-denied-read')).json().code).toBe(101018);
    expect((await records(user, 'user', { reqID: 'req-audit-denied-read' })).total).toBe(0);
  });

  it('redacts passwords, keys and tokens from the recorded body', async () => {
    const res = await call(
      user,
      updateSelf,
      { params: { auth: 'user' }, body: { name: 'Customer One', email: 'one@example.com', password: TEST_PASSWORD } },
      'req-audit-self',
    );
    expect(res.statusCode).toBe(200);
    const [row] = (await records(user, 'user', { reqID: 'req-audit-self' })).data;
    expect(row?.changes).toEqual({ name: 'Customer One', email: 'one@example.com', password: '[redacted]' });
    expect(JSON.stringify(row)).not.toContain(TEST_PASSWORD);
  });

  it('shows a customer only its own records, an operator its own and its customers, another operator none', async () => {
    await call(
      user,
      updateSelf,
      { params: { auth: 'user' }, body: { name: 'Customer Two', email: 'one@example.com' } },
      'req-iso-user',
    );
    await call(client, createZone, { body: { name: 'Iso' } }, 'req-iso-client');
    expect((await records(user, 'user', { reqID: 'req-iso-user' })).total).toBe(1);
    expect((await records(user, 'user', { reqID: 'req-iso-client' })).total).toBe(0);
    expect((await records(client, 'client', { reqID: 'req-iso-user' })).total).toBe(1);
    expect((await records(admin, 'admin', { reqID: 'req-iso-client' })).total).toBe(1);
    expect((await records(rival, 'client')).data.filter((r) => r.accountName !== 'rival')).toEqual([]);
    expect((await records(rival, 'client', { reqID: 'req-iso-user' })).total).toBe(0);
    // The path's tier must be the token's.
    expect((await call(user, listAuditLogs, { params: { auth: 'client' } })).json().code).toBe(101018);
    expect((await send(t.app, listAuditLogs, { params: { auth: 'user' } })).json().code).toBe(101013);
  });

  it('filters by account name, method, url, time range and pages in the database', async () => {
    for (const name of ['F1', 'F2', 'F3']) await call(client, createZone, { body: { name } });
    const byUrl = await records(client, 'client', { url: 'client/zone', method: 'POST' });
    expect(byUrl.total).toBeGreaterThanOrEqual(3);
    expect(byUrl.data.every((r) => r.method === 'POST' && r.url.includes('client/zone'))).toBe(true);
    const page = await call(client, listAuditLogs, {
      params: { auth: 'client' },
      query: { page: 2, pageSize: 2, url: 'client.zone.create' },
    });
    expect(page.json().data).toHaveLength(2);
    expect(page.json().total).toBe(byUrl.data.filter((r) => r.action === 'client.zone.create').length);
    expect((await records(client, 'client', { accountName: 'cust' })).total).toBe(0);
    expect((await records(client, 'client', { accountName: 'user' })).data.every((r) => r.accountName === 'user')).toBe(
      true,
    );
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await records(client, 'client', { startTime: future })).total).toBe(0);
    expect((await records(client, 'client', { endTime: future })).total).toBeGreaterThan(0);
    const bad = await call(
      client,
      listAuditLogs,
      rawInput({ params: { auth: 'client' }, query: { method: 'FETCH', startTime: 'yesterday', pageSize: 0 } }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['method', 'pageSize', 'startTime']);
    // The spec's POST form answers the same page from the body, checks it alike, and adds no record.
    const before = (await records(client, 'client', {})).total;
    const posted = await call(client, searchAuditLogs, {
      params: { auth: 'client' },
      body: { page: 2, pageSize: 2, url: 'client.zone.create' },
    });
    expect(posted.json()).toEqual(page.json());
    const badPost = await call(
      client,
      searchAuditLogs,
      rawInput({ params: { auth: 'client' }, body: { method: 'FETCH', startTime: 'yesterday', pageSize: 0 } }),
    );
    expect(badPost.json().code).toBe(101003);
    expect(fieldNames(badPost).sort()).toEqual(['method', 'pageSize', 'startTime']);
    expect((await records(client, 'client', {})).total).toBe(before);
  });

  it('offers no call that edits or deletes records, and every read-only exception is a declared route', async () => {
    const auditPaths = ALL_ROUTES.filter((r) => r.path.includes('auditLog'));
    expect(auditPaths.map((r) => r.method)).toEqual(['GET', 'POST']);
    // The POST is the same search (the spec's form), a read: never audited itself.
    const search = ALL_ROUTES.find((r) => r.id === 'auth.auditLogs.search');
    expect(search && isAudited(search)).toBe(false);
    const ids = new Set(ALL_ROUTES.map((r) => r.id));
    for (const id of READ_ONLY_ROUTES) expect(ids.has(id), id).toBe(true);
    // The calls kept outside one transaction are declared, audited routes.
    for (const id of OUTSIDE_TRANSACTION_ROUTES) {
      const route = ALL_ROUTES.find((r) => r.id === id);
      expect(route && isAudited(route), id).toBe(true);
    }
    // No route deletes audit records: the path answers as unknown.
    const del = await rawRequest(
      t.app,
      { method: 'DELETE', url: '/api/v1/client/auditLogs' },
      { body: { ids: [1] } },
      { token: client },
    );
    expect(del.statusCode).toBe(404);
  });
});

describe('switch user', () => {
  it('lets an operator act as its customer, audited with the operator as the real actor', async () => {
    const res = await call(client, switchUser, { params: { auth: 'client' }, body: { id: userId } }, 'req-switch');
    expect(res.statusCode).toBe(200);
    const switched = res.json().data;
    expect(switched).toMatchObject({ auth: 'user', tokenType: 'Bearer' });
    const self = await call(switched, getSelf, { params: { auth: 'user' } });
    expect(self.json().data.id).toBe(userId);
    await call(
      switched,
      updateSelf,
      { params: { auth: 'user' }, body: { name: 'Set by operator', email: 'one@example.com' } },
      'req-as-customer',
    );
    const [row] = (await records(user, 'user', { reqID: 'req-as-customer' })).data;
    expect(row).toMatchObject({ accountID: userId, realAccountID: clientId, realAccountName: 'client' });
    // The switch itself is in the operator's log, naming the target.
    const [switchRow] = (await records(client, 'client', { reqID: 'req-switch' })).data;
    expect(switchRow).toMatchObject({ action: 'auth.switchUser', changes: { id: userId }, accountID: clientId });
    // Searching by the real actor's name finds what was done on its behalf.
    expect((await records(client, 'client', { accountName: 'client', reqID: 'req-as-customer' })).total).toBe(1);
    // A switched session cannot switch on.
    const admSwitch = (await call(admin, switchUser, { params: { auth: 'admin' }, body: { id: clientId } })).json()
      .data;
    expect(admSwitch.auth).toBe('client');
    expect((await call(admSwitch, switchUser, { params: { auth: 'client' }, body: { id: userId } })).json().code).toBe(
      101018,
    );
  });

  it('lets a customer act as its own sub-user (user/proxy), audited with the customer as the real actor', async () => {
    const subId = await addAccount(t.app, 'user', 'proxied-sub', userId);
    const res = await call(user, switchUser, { params: { auth: 'user' }, body: { id: subId } }, 'req-user-switch');
    expect(res.statusCode, res.body).toBe(200);
    const switched = res.json().data;
    expect(switched).toMatchObject({ auth: 'user', tokenType: 'Bearer' });
    expect((await call(switched, getSelf, { params: { auth: 'user' } })).json().data).toMatchObject({
      id: subId,
      account: 'proxied-sub',
    });
    await call(
      switched,
      updateSelf,
      { params: { auth: 'user' }, body: { name: 'Set by parent', email: 'sub@example.com' } },
      'req-as-sub',
    );
    const [row] = (await records(user, 'user', { reqID: 'req-as-sub' })).data;
    expect(row).toMatchObject({
      accountID: subId,
      accountName: 'proxied-sub',
      realAccountID: userId,
      realAccountName: 'user',
    });
    const [switchRow] = (await records(user, 'user', { reqID: 'req-user-switch' })).data;
    expect(switchRow).toMatchObject({ action: 'auth.switchUser', changes: { id: subId }, accountID: userId });
    // A switched session cannot switch on.
    const deeper = await addAccount(t.app, 'user', 'proxied-sub-sub', subId);
    expect((await call(switched, switchUser, { params: { auth: 'user' }, body: { id: deeper } })).json().code).toBe(
      101018,
    );
  });

  it("refuses a customer another customer's sub-user, its parent, a sibling and accounts of other tiers", async () => {
    const rivalId = (await call(rival, getSelf, { params: { auth: 'client' } })).json().data.id;
    const otherCustomer = await addAccount(t.app, 'user', 'other-customer', rivalId);
    const otherSub = await addAccount(t.app, 'user', 'other-customers-sub', otherCustomer);
    const sameOperatorCustomer = await addAccount(t.app, 'user', 'neighbour-customer', clientId);
    const neighbourSub = await addAccount(t.app, 'user', 'neighbours-sub', sameOperatorCustomer);
    for (const id of [otherSub, otherCustomer, sameOperatorCustomer, neighbourSub, clientId, 999999]) {
      expect((await call(user, switchUser, { params: { auth: 'user' }, body: { id } })).json().code, String(id)).toBe(
        101018,
      );
    }
    // A sub-user switches below itself only: not to its parent, nor to a sibling.
    const subA = await addAccount(t.app, 'user', 'sibling-a', userId);
    const subB = await addAccount(t.app, 'user', 'sibling-b', userId);
    const asA = await signIn(t.app, 'user', 'sibling-a');
    await giveRole(t.app, user, 'user', subA);
    for (const id of [userId, subB]) {
      expect((await call(asA, switchUser, { params: { auth: 'user' }, body: { id } })).json().code, String(id)).toBe(
        101018,
      );
    }
  });

  it('refuses accounts outside the caller, the wrong tier, paused targets and bad bodies', async () => {
    const rivalId = (await call(rival, getSelf, { params: { auth: 'client' } })).json().data.id;
    const rivalCustomer = await addAccount(t.app, 'user', 'rival-customer', rivalId);
    expect(
      (await call(client, switchUser, { params: { auth: 'client' }, body: { id: rivalCustomer } })).json().code,
    ).toBe(101018);
    expect((await call(client, switchUser, { params: { auth: 'client' }, body: { id: 999999 } })).json().code).toBe(
      101018,
    );
    expect((await call(client, switchUser, { params: { auth: 'client' }, body: { id: clientId } })).json().code).toBe(
      101018,
    );
    // Not to itself.
    expect((await call(user, switchUser, { params: { auth: 'user' }, body: { id: userId } })).json().code).toBe(101018);
    const paused = await addAccount(t.app, 'user', 'paused-customer', clientId);
    await t.app.rampart.accounts.update(paused, { status: 'pause' });
    expect((await call(client, switchUser, { params: { auth: 'client' }, body: { id: paused } })).json().code).toBe(
      101008,
    );
    const bad = await call(client, switchUser, rawInput({ params: { auth: 'client' }, body: { id: 'x' } }));
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'id' }] } });
    expect((await send(t.app, switchUser, { params: { auth: 'client' }, body: { id: userId } })).json().code).toBe(
      101013,
    );
  });
});
