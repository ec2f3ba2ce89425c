import type { AuditRecord } from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { bearer, signIn } from './helpers/auth.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * "All or none" inside an audited call: a service's two writes run in one `transactions.run` block
 * (a savepoint of the call's transaction); when the second write fails, the first is not left
 * behind, and the refused call is still in the audit log with its error.
 */
let t: TestApp;
let user: { accessToken: string };
let rootUserId = 0;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t.app, 'user');
  rootUserId = await rootId(t.app, 'user');
});
afterAll(async () => t.close());

const raw = () => t.db.database.db;
const call = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, reqId: string) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: { ...bearer(user), 'x-request-id': reqId },
    payload,
  });
async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(((await raw().execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n);
}
async function recordOf(reqId: string): Promise<AuditRecord[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/user/auditLogs?pageSize=100&reqID=${reqId}`,
    headers: bearer(user),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
/** Makes writes matching `condition` on `table` fail, for the length of `fn`. */
async function failing<T>(table: string, on: 'INSERT' | 'UPDATE', condition: string, fn: () => Promise<T>) {
  await raw().execute(
    sql.raw(`CREATE FUNCTION all_or_none_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF ${condition} THEN RAISE EXCEPTION 'second write refused'; END IF;
        RETURN NEW;
      END $$`),
  );
  await raw().execute(
    sql.raw(
      `CREATE TRIGGER all_or_none_refuse BEFORE ${on} ON ${table} FOR EACH ROW EXECUTE FUNCTION all_or_none_refuse()`,
    ),
  );
  try {
    return await fn();
  } finally {
    await raw().execute(sql.raw(`DROP TRIGGER all_or_none_refuse ON ${table}`));
    await raw().execute(sql.raw('DROP FUNCTION all_or_none_refuse()'));
  }
}

describe('all or none inside an audited call', () => {
  it("an API token whose row cannot be written leaves no session behind (the block's first write)", async () => {
    const sessions = sql`SELECT count(*)::int AS n FROM auth_sessions WHERE account_id = ${rootUserId} AND user_agent = 'api-token'`;
    const before = await count(sessions);
    const res = await failing('api_tokens', 'INSERT', "NEW.name = 'Half token'", () =>
      call('POST', 'user/apiToken', { name: 'Half token', lifetime: 600 }, 'req-aon-token'),
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe(101002);
    expect(await count(sessions)).toBe(before);
    expect(await count(sql`SELECT count(*)::int AS n FROM api_tokens WHERE name = 'Half token'`)).toBe(0);
    // The refusal is audited, with nothing it changed.
    expect(await recordOf('req-aon-token')).toEqual([
      expect.objectContaining({
        action: 'apiTokens.create',
        status: 500,
        code: 101002,
        pending: false,
        rowChanges: [],
      }),
    ]);
    // The same call goes through once the second write can be made: both rows are written.
    const ok = await call('POST', 'user/apiToken', { name: 'Half token', lifetime: 600 }, 'req-aon-token-2');
    expect(ok.statusCode).toBe(200);
    expect(await count(sessions)).toBe(before + 1);
    const [done] = await recordOf('req-aon-token-2');
    expect(done?.rowChanges.map((c) => c.table).sort()).toEqual(['api_tokens']);
  });

  it("a second-factor reset whose sign-out fails leaves the account's second factor as it was", async () => {
    const id = await addAccount(t.app, 'user', 'aon-sub', rootUserId);
    await signIn(t.app, 'user', 'aon-sub'); // a live session for the reset to end
    await t.app.rampart.accounts.update(id, { login2FAType: 1, email: 'aon-sub@rampart.test' });
    const res = await failing('auth_sessions', 'UPDATE', "NEW.revoked_reason = 'login2fa-reset-by-parent'", () =>
      call('PUT', 'user/account/login2fa', { id }, 'req-aon-reset'),
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe(101002);
    // The first write (the account's second factor off) was undone with the failed second.
    expect((await t.app.rampart.accounts.findById(id))?.login2FAType).toBe(1);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM auth_sessions WHERE account_id = ${id} AND revoked_at IS NULL`),
    ).toBe(1);
    expect(await recordOf('req-aon-reset')).toEqual([
      expect.objectContaining({ action: 'auth.account.resetLogin2fa', status: 500, code: 101002, pending: false }),
    ]);
    const ok = await call('PUT', 'user/account/login2fa', { id }, 'req-aon-reset-2');
    expect(ok.statusCode).toBe(200);
    expect((await t.app.rampart.accounts.findById(id))?.login2FAType).toBe(0);
  });
});
