import {
  ALL_ROUTES,
  type AnyRoute,
  assignablePermissions,
  assignRole,
  createGroup,
  createProduct,
  createRole,
  createSite,
  createZone,
  pathParamNames,
  permissionOf,
  SELF_PERMISSION,
  TIERS,
  type Tier,
  type TokenSet,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/crypto/passwords.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawRequest, sendAs } from './helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

/**
 * The route × role matrix: every declared signed-in route, for each tier and kind of
 * account — no token, a token of another tier, a sub-account without the route's key, and the
 * root on its own objects. Walks ALL_ROUTES, so a new route is covered the day it is declared.
 */

const SIGNED_IN = ALL_ROUTES.filter((r) => r.access.kind === 'tiers') as (AnyRoute & {
  access: { kind: 'tiers'; tiers: readonly Tier[] };
})[];

let t: TestApp;
const root = {} as Record<Tier, TokenSet>;
/** A sub-account holding every read key of its tier, and one without a role. */
const readOnly = {} as Record<Tier, TokenSet>;
const noRole = {} as Record<Tier, TokenSet>;
/** Ids of the roots' own objects, by path parameter name. */
const own: Record<string, number> = {};
/** The same objects of another operator and its customer: never readable by the roots. */
const foreign: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const tier of TIERS) root[tier] = await signIn(t.app, tier);
  const zone = await call(root.client, createZone, { body: { name: 'Matrix' } });
  own.zoneID = zone.json().data.id;
  const group = await call(root.client, createGroup, {
    params: { zoneID: own.zoneID },
    body: { name: 'web', portType: 7 },
  });
  own.groupID = group.json().data.id;
  const product = await call(root.client, createProduct, {
    body: {
      name: 'CDN',
      portType: 7,
      mainGroupIDs: [own.groupID],
    },
  });
  own.productId = product.json().data.id;
  const userId = await rootId(t.app, 'user');
  const site = await call(root.client, createSite, {
    body: {
      siteName: 'matrix',
      userID: userId,
      productID: own.productId,
      tags: [],
    },
  });
  own.siteId = site.json().data.siteID;

  // Another operator with the same objects, and a customer of its own with a site.
  const rivalId = (
    await t.app.rampart.accounts.insert({
      tier: 'client',
      account: 'matrix-rival',
      name: 'rival',
      isRoot: true,
      passwordHash: await hashPassword(TEST_PASSWORD),
    })
  ).id;
  const rival = await signIn(t.app, 'client', 'matrix-rival');
  foreign.zoneID = (await call(rival, createZone, { body: { name: 'Matrix' } })).json().data.id;
  foreign.groupID = (
    await call(rival, createGroup, { params: { zoneID: foreign.zoneID }, body: { name: 'web', portType: 7 } })
  ).json().data.id;
  foreign.productId = (
    await call(rival, createProduct, { body: { name: 'CDN', portType: 7, mainGroupIDs: [foreign.groupID] } })
  ).json().data.id;
  const rivalCustomer = await t.app.rampart.accounts.insert({
    tier: 'user',
    parentId: rivalId,
    account: 'matrix-rival-customer',
    name: 'rival customer',
    isRoot: true,
    passwordHash: await hashPassword(TEST_PASSWORD),
  });
  foreign.siteId = (
    await call(rival, createSite, {
      body: {
        siteName: 'rival',
        userID: rivalCustomer.id,
        productID: foreign.productId,
        tags: [],
      },
    })
  ).json().data.siteID;
  for (const [name, id] of Object.entries(foreign)) expect(id, name).toBeGreaterThan(0);

  for (const tier of TIERS) {
    const parentId = await rootId(t.app, tier);
    const reads = [...assignablePermissions(tier)].filter((key) => key.endsWith('.read'));
    const role = (
      await call(root[tier], createRole, { params: { auth: tier }, body: { name: 'readers', permissions: reads } })
    ).json();
    expect(role.data?.permissions, JSON.stringify(role)).toEqual(reads.sort());
    for (const [kind, roleId] of [
      ['read', role.data.id],
      ['none', null],
    ] as const) {
      const account = `${tier}-${kind}`;
      const row = await t.app.rampart.accounts.insert({
        tier,
        parentId,
        account,
        name: account,
        passwordHash: await hashPassword(TEST_PASSWORD),
      });
      if (roleId !== null) {
        const res = await call(root[tier], assignRole, { params: { auth: tier }, body: { accountId: row.id, roleId } });
        expect(res.json()).toEqual({ data: true });
      }
      (kind === 'read' ? readOnly : noRole)[tier] = await signIn(t.app, tier, account);
    }
  }
}, 120_000);
afterAll(async () => t.close());

function call<R extends AnyRoute>(token: TokenSet | null, route: R, ...args: CallArgs<R>) {
  return sendAs(t.app, token, route, ...args);
}

/** The route's path parameters for a caller of `tier`, with `ids` for the others (1 when unknown). */
function paramsOf(route: AnyRoute, tier: Tier, ids: Record<string, number> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of pathParamNames(route.path)) params[name] = name === 'auth' ? tier : (ids[name] ?? 1);
  return params;
}

async function codeOf(route: AnyRoute, token: TokenSet | null, tier: Tier, ids?: Record<string, number>) {
  // Every route with placeholder input: what is checked here comes before validation.
  const input = { params: paramsOf(route, tier, ids), body: route.method === 'GET' ? undefined : {} };
  const res = await rawRequest(t.app, route, input, { token: token ?? undefined });
  return res.statusCode === 200 ? 0 : (res.json().code as number);
}

describe('route × role matrix', () => {
  it('every signed-in route answers 101013 without a token', async () => {
    const wrong: string[] = [];
    for (const route of SIGNED_IN) {
      const code = await codeOf(route, null, route.access.tiers[0] as Tier);
      if (code !== 101013) wrong.push(`${route.id}: ${code}`);
    }
    expect(wrong).toEqual([]);
  });

  it("every route answers 101018 to a token of a tier it does not serve (or another tier's path)", async () => {
    const wrong: string[] = [];
    for (const route of SIGNED_IN) {
      const byTierPath = route.path.includes('{auth}');
      for (const tier of TIERS) {
        if (route.access.tiers.includes(tier) && !byTierPath) continue;
        // For `{auth}` routes: the token of `tier` on the path of another tier.
        const pathTier = byTierPath ? (TIERS.find((other) => other !== tier) as Tier) : (route.access.tiers[0] as Tier);
        const code = await codeOf(route, root[tier], pathTier);
        if (code !== 101018) wrong.push(`${route.id} as ${tier} on ${pathTier}: ${code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a sub-account without a role gets 101018 on every route but its own account', async () => {
    const wrong: string[] = [];
    for (const route of SIGNED_IN) {
      for (const tier of route.access.tiers) {
        const code = await codeOf(route, noRole[tier], tier);
        const key = permissionOf(route);
        if (key !== SELF_PERMISSION && code !== 101018) wrong.push(`${route.id} (${tier}): ${code}`);
        if (key === SELF_PERMISSION && (code === 101018 || code === 101013))
          wrong.push(`${route.id} (${tier}): ${code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a read-only role gets 101018 on every write route, and passes the check on read routes', async () => {
    const wrong: string[] = [];
    let reads = 0;
    for (const route of SIGNED_IN) {
      const key = permissionOf(route) ?? '';
      for (const tier of route.access.tiers) {
        const hasIds = pathParamNames(route.path).some((name) => name !== 'auth');
        if (key.endsWith('.write')) {
          const code = await codeOf(route, readOnly[tier], tier);
          if (code !== 101018) wrong.push(`${route.id} (${tier}) write: ${code}`);
        } else if (!hasIds) {
          // Without a path id the call reaches no object: the permission check alone decides.
          reads++;
          const code = await codeOf(route, readOnly[tier], tier);
          if (code === 101018 || code === 101013) wrong.push(`${route.id} (${tier}) read: ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(reads).toBeGreaterThan(20);
  });

  it('the root on its own objects is never refused (not 101013/101018), with a minimal request', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const route of SIGNED_IN) {
      const names = pathParamNames(route.path).filter((name) => name !== 'auth');
      const ids: Record<string, number> = { ...own };
      if (route.id === 'client.product.groups') ids.id = own.productId as number;
      // Only ids the test owns: a node, line, domain, rule ... of its own needs more set-up than this matrix makes.
      if (names.some((name) => ids[name] === undefined && name !== 'roleId')) continue;
      for (const tier of route.access.tiers) {
        if (names.includes('roleId')) {
          ids.roleId = (
            await call(root[tier], createRole, {
              params: { auth: tier },
              body: { name: `r${checked}`, permissions: [] },
            })
          ).json().data.id;
        }
        checked++;
        const code = await codeOf(route, root[tier], tier, ids);
        if (code === 101018 || code === 101013) wrong.push(`${route.id} (${tier}): ${code}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it("no read route answers with another tenant's object: its zone, group, product or site ids", async () => {
    const leaked: string[] = [];
    let checked = 0;
    for (const route of SIGNED_IN.filter((r) => r.method === 'GET')) {
      const names = pathParamNames(route.path).filter((name) => name !== 'auth');
      const ids: Record<string, number> = { ...foreign };
      if (route.id === 'client.product.groups') ids.id = foreign.productId as number;
      if (names.length === 0 || names.some((name) => ids[name] === undefined)) continue;
      for (const tier of route.access.tiers) {
        checked++;
        const code = await codeOf(route, root[tier], tier, ids);
        if (code === 0) leaked.push(`${route.id} (${tier})`);
      }
    }
    expect(leaked).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
