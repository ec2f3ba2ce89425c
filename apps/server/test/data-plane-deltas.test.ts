import type { AnyRoute, DataPlane, PlaneAnswer, PlaneEntries, PlaneMeta } from '@rampart/contract';
import {
  addAntiCCRules,
  addCacheRules,
  addLineNodes,
  applyPlaneChanges,
  changeSitesProduct,
  createCertificate,
  createDomains,
  createProduct,
  dataPlaneSchema,
  deleteAntiCCRules,
  deleteCacheRules,
  deleteDomains,
  entryId,
  getNodePlane,
  initializeNodes,
  planeAnswerSchema,
  planeEntryValues,
  removeLineNodes,
  setDomainsForceSSL,
  setDomainsStatus,
  setGzipSetting,
  setSitesStatus,
  setZoneForceSSLRedirectCode,
  updateDomain,
} from '@rampart/contract';
import { planeHash } from '@rampart/contract/plane-hash';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainsRepository } from '../src/modules/domains/domains.repository.js';
import { RECHECK_MS } from '../src/modules/snapshots/plane.service.js';
import { PlaneEntryBuilder } from '../src/modules/snapshots/plane-entries.js';
import { rowsOf } from '../src/platform/db/rows.js';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, sendAs, type Token } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { joinNode } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { random } from './helpers/random.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let f: SiteFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
});
afterAll(async () => t.close());

type Query = { since?: string; plane?: string; meta?: string; wait?: number };

async function poll(query: Query = {}): Promise<PlaneAnswer | null> {
  const res = await nodeSend(t.app, f.node, getNodePlane, { query });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  if (data !== null) expect(planeAnswerSchema.safeParse(data).success).toBe(true);
  return data;
}

/** What a node holds: entries, meta and where it is in the log, kept up to date from deltas only. */
class NodeState {
  entries: PlaneEntries = new Map();
  meta: PlaneMeta | null = null;
  metaHash: string | undefined;
  since: string | undefined;
  plane: string | undefined;
  answers: PlaneAnswer[] = [];

  apply(answer: PlaneAnswer): void {
    this.answers.push(answer);
    if (answer.type === 'full') {
      this.entries = new Map(answer.entries.map((e) => [entryId(e.kind, e.key), e]));
    } else {
      expect(answer.from).toBe(this.since);
      applyPlaneChanges(this.entries, answer.changes);
    }
    // The plane hash the answer names is the sum of what the node now holds.
    expect(planeHash([...this.entries.values()].map((e) => e.hash))).toBe(answer.planeHash);
    this.meta = answer.meta;
    this.metaHash = answer.metaHash;
    this.since = answer.to;
    this.plane = answer.planeHash;
  }

  async sync(): Promise<PlaneAnswer | null> {
    const answer = await poll({ since: this.since, plane: this.plane, meta: this.metaHash });
    if (answer) this.apply(answer);
    return answer;
  }

  values(): Map<string, unknown> {
    return new Map([...this.entries].filter(([, e]) => e.kind !== 'acme').map(([id, e]) => [id, e.value]));
  }
}

function byId(values: Map<string, unknown>): Record<string, unknown> {
  return Object.fromEntries([...values].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The node's state equals a full plane of the same version and the snapshot the whole-snapshot path builds. */
async function expectConverged(state: NodeState): Promise<void> {
  const full = await poll();
  expect(full?.type).toBe('full');
  if (full?.type !== 'full') return;
  // The node may be behind the head: changes of other planes since moved the head only.
  expect(Number(full.to)).toBeGreaterThanOrEqual(Number(state.since));
  expect(byId(state.values())).toEqual(
    byId(new Map(full.entries.filter((e) => e.kind !== 'acme').map((e) => [entryId(e.kind, e.key), e.value]))),
  );
  expect(full.planeHash).toBe(state.plane);
  const snapshot = await f.snapshot();
  const dataPlane: DataPlane = dataPlaneSchema.parse(snapshot.dataPlane);
  expect(byId(state.values())).toEqual(byId(planeEntryValues(dataPlane)));
  expect(state.meta).toMatchObject({
    cacheEpoch: dataPlane.cacheEpoch,
    limits: dataPlane.limits,
    challenge: dataPlane.challenge,
  });
  for (const domain of dataPlane.domains) expect(domain.forceSSLCode).toBe(state.meta?.forceSSLCode);
}

/** A second operator with a customer's site of one domain (`www.<name>.example`) and a node serving it. */
async function anotherOperator(name: string) {
  const root = await addAccount(t.app, 'client', name);
  const operator = await signIn(t.app, 'client', name);
  const customer = await addAccount(t.app, 'user', `${name}-customer`, root);
  const user = await signIn(t.app, 'user', `${name}-customer`);
  const { zoneId, groupId, productId } = await webProduct(t.app, operator);
  const siteId = await operatorCalls(t.app, operator).site(`${name} shop`, customer, productId);
  const made = await sendAs(t.app, user, createDomains, {
    params: { siteId },
    body: { domains: [{ name: `www.${name}.example`, upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
  });
  expect(made.statusCode, made.body).toBe(200);
  const node = await joinNode(t.app, operator, `${name}-edge`);
  await sendAs(t.app, operator, initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId, groupID: groupId } });
  return { user, siteId, node };
}

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.client, route, ...args);
const asUser = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);

describe('the data plane as deltas', () => {
  it('keeps a node that applies only deltas equal to the full plane and to the snapshot, over random changes', async () => {
    const state = new NodeState();
    const first = await state.sync();
    expect(first?.type).toBe('full');
    const rand = random(Number(process.env.DP_SEED ?? 25));
    const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(rand() * list.length)];
    const cert = await makeCertificate(['*.prop.example']);
    const certId = (
      await asUser(createCertificate, {
        params: { siteId: f.siteId },
        body: { name: 'prop', certificate: cert.certPem, privateKey: cert.keyPem },
      })
    ).json().data.id as number;
    const spareGroup = await operatorCalls(t.app, f.client).group(f.zoneId, 'spare');
    const spareProduct = (
      await call(createProduct, { body: { name: 'Elsewhere', portType: 7, mainGroupIDs: [spareGroup] } })
    ).json().data.id as number;
    // A large site beside it: its single-domain changes rebuild only those domains' entries.
    const bigSite = await operatorCalls(t.app, f.client).site('prop big', await rootId(t.app, 'user'), f.productId);
    const big = await new DomainsRepository(t.db.database.db).insertMany(
      Array.from({ length: 400 }, (_, i) => ({
        siteId: bigSite,
        name: `b${i}.propbig.example`,
        proofStatus: 2 as const,
      })),
    );
    await t.db.database.db.execute(sql`INSERT INTO domain_upstreams (domain_id, ip, port)
      SELECT id, '127.0.0.1', 8080 FROM domains WHERE site_id = ${bigSite}`);
    const bigPem = await makeCertificate(['*.propbig.example']);
    const bigCert = (
      await asUser(createCertificate, {
        params: { siteId: bigSite },
        body: { name: 'prop big', certificate: bigPem.certPem, privateKey: bigPem.keyPem },
      })
    ).json().data.id as number;
    const mine: number[] = [];
    let n = 0;
    let cacheRules: number[] = [];
    let onGroup = true;
    let onSpare = false;
    let forceCode: 301 | 302 = 301;
    const bigDomainChange = async () => {
      const id = pick(big);
      if (id === undefined) return;
      const params = { siteId: bigSite };
      const what = Math.floor(rand() * 6);
      if (what === 0) {
        await asUser(setDomainsForceSSL, { params, body: { domainIDs: [id], forceSSL: rand() < 0.5 } });
      } else if (what === 1) {
        await asUser(setDomainsStatus, { params, body: { domainIDs: [id], status: rand() < 0.5 ? 0 : 1 } });
      } else if (what === 2 || what === 3) {
        // Its upstreams, and its certificate on or off (an entry only it names comes and goes with it).
        const res = await asUser(updateDomain, {
          params,
          body: {
            id,
            upstreams: [{ ip: '127.0.0.2', port: 8000 + Math.floor(rand() * 100) }],
            certificateID: rand() < 0.5 ? bigCert : 0,
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      } else if (what === 4) {
        big.splice(big.indexOf(id), 1);
        expect((await asUser(deleteDomains, { params, body: { ids: [id] } })).statusCode).toBe(200);
      } else {
        const res = await asUser(createDomains, {
          params,
          body: { domains: [{ name: `x${++n}.propbig.example`, upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
        });
        expect(res.statusCode, res.body).toBe(200);
        big.push(...(res.json().data as { id: number }[]).map((d) => d.id));
      }
    };
    let antiCC: number[] = [];
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['one domain of the big site', bigDomainChange],
      ['another domain of the big site', bigDomainChange],
      [
        'add domains',
        async () => {
          const count = 1 + Math.floor(rand() * 3);
          const domains = Array.from({ length: count }, () => ({
            name: `d${++n}.prop.example`,
            upstreams: [{ ip: '127.0.0.1', port: 8080 }],
            ...(rand() < 0.5 ? { certificateID: certId } : {}),
          }));
          const res = await asUser(createDomains, { params: { siteId: f.siteId }, body: { domains } });
          expect(res.statusCode).toBe(200);
          mine.push(...(res.json().data as { id: number }[]).map((d) => d.id));
        },
      ],
      [
        'neighbour domain',
        async () => {
          await f.addDomains([`n${++n}.next.example`], 'other');
        },
      ],
      [
        'remove a domain',
        async () => {
          const id = pick(mine);
          if (id === undefined) return;
          mine.splice(mine.indexOf(id), 1);
          expect((await asUser(deleteDomains, { params: { siteId: f.siteId }, body: { ids: [id] } })).statusCode).toBe(
            200,
          );
        },
      ],
      [
        'disable or enable domains',
        async () => {
          const ids = mine.filter(() => rand() < 0.5);
          if (ids.length === 0) return;
          await asUser(setDomainsStatus, {
            params: { siteId: f.siteId },
            body: { domainIDs: ids, status: rand() < 0.5 ? 0 : 1 },
          });
        },
      ],
      [
        'force SSL',
        async () => {
          if (mine.length === 0) return;
          await asUser(setDomainsForceSSL, {
            params: { siteId: f.siteId },
            body: { domainIDs: mine.slice(0, 2), forceSSL: rand() < 0.5 },
          });
        },
      ],
      [
        'cache rules',
        async () => {
          if (cacheRules.length > 0 && rand() < 0.5) {
            await asUser(deleteCacheRules, { params: { siteId: f.siteId }, body: { ids: cacheRules } });
            cacheRules = [];
            return;
          }
          const res = await asUser(addCacheRules, {
            params: { siteId: f.siteId },
            body: { data: [{ scope: 'all', ttl: 60 }] },
          });
          expect(res.statusCode, res.body).toBe(200);
          const list = res.json().data as unknown as { id: number }[] | { ids: number[] };
          cacheRules.push(...(Array.isArray(list) ? list.map((r) => r.id) : list.ids));
        },
      ],
      [
        'gzip',
        async () => {
          await asUser(setGzipSetting, {
            params: { siteId: f.siteId },
            body: { enabled: rand() < 0.5, types: ['text/html'], minLength: 1024 + Math.floor(rand() * 100) },
          });
        },
      ],
      [
        // The meta's challenge keys follow the plane's firewalls (an anti-CC rule needs them).
        'an anti-CC rule comes or goes',
        async () => {
          if (antiCC.length > 0) {
            const res = await asUser(deleteAntiCCRules, { params: { siteId: f.siteId }, body: { ids: antiCC } });
            expect(res.statusCode, res.body).toBe(200);
            antiCC = [];
            return;
          }
          const res = await asUser(addAntiCCRules, {
            params: { siteId: f.siteId },
            body: { data: [{ urlRegex: '\\/login', blockType: 1 }] },
          });
          expect(res.statusCode, res.body).toBe(200);
          antiCC = (res.json().data as { id: number }[]).map((r) => r.id);
        },
      ],
      [
        'pause or resume the site',
        async () => {
          await call(setSitesStatus, { body: { ids: [f.siteId], status: rand() < 0.5 ? 'pause' : 'normal' } });
        },
      ],
      [
        'node leaves or joins its group',
        async () => {
          const route = onGroup ? removeLineNodes : addLineNodes;
          await call(route, {
            params: { zoneID: f.zoneId, groupID: f.groupId, lineID: 'default' },
            body: { nodeIDs: [f.node.nodeId] },
          });
          onGroup = !onGroup;
        },
      ],
      [
        'the site moves to a product on another group and back',
        async () => {
          onSpare = !onSpare;
          await call(changeSitesProduct, {
            body: { ids: [f.siteId], productID: onSpare ? spareProduct : f.productId },
          });
        },
      ],
      [
        "the zone's force-SSL code",
        async () => {
          forceCode = forceCode === 301 ? 302 : 301;
          await call(setZoneForceSSLRedirectCode, { params: { zoneID: f.zoneId }, body: { code: forceCode } });
        },
      ],
    ];
    const done: string[] = [];
    let movedNode = false;
    for (let i = 0; i < 60; i++) {
      // Every kind of change at least once, then at random.
      const [name, step] = (i < steps.length ? steps[i] : pick(steps)) ?? steps[0]!;
      done.push(name);
      await step();
      movedNode ||= name.startsWith('node ');
      // Sometimes two changes before the node looks: one delta carries both.
      if (rand() < 0.3) continue;
      const answer = await state.sync();
      // A node whose groups changed polls another plane: it starts that one from a full answer.
      if (!movedNode) expect(answer?.type, `step ${i} (${done.join(', ')})`).not.toBe('full');
      movedNode = false;
      await expectConverged(state);
    }
    await state.sync();
    await expectConverged(state);
    // Sites joined and left the plane as the product changed: those came as deltas too.
    expect(done).toContain('the site moves to a product on another group and back');
    // Back to serving, for the tests below.
    await call(changeSitesProduct, { body: { ids: [f.siteId], productID: f.productId } });
    await call(setSitesStatus, { body: { ids: [f.siteId], status: 'normal' } });
    if (!onGroup) {
      await call(addLineNodes, {
        params: { zoneID: f.zoneId, groupID: f.groupId, lineID: 'default' },
        body: { nodeIDs: [f.node.nodeId] },
      });
    }
    // Entries really travelled as deltas, with puts and deletions.
    const ops = state.answers.flatMap((a) => (a.type === 'delta' ? a.changes.map((c) => c.op) : []));
    expect(ops).toContain('put');
    expect(ops).toContain('del');
  });

  it("never gives a node another operator's entries, though both operators' sites are built", async () => {
    const { user: rivalUser, siteId: rivalSite, node: rivalNode } = await anotherOperator('rival');
    await f.addDomains(['www.mine-only.example']);
    const names = (answer: PlaneAnswer | null) =>
      answer?.type === 'full' ? answer.entries.filter((e) => e.kind === 'domain').map((e) => e.key) : [];
    const mine = names(await poll());
    const theirs = names((await nodeSend(t.app, rivalNode, getNodePlane, { query: {} })).json().data);
    expect(mine).toContain('www.mine-only.example');
    expect(mine).not.toContain('www.rival.example');
    expect(theirs).toEqual(['www.rival.example']);
    // A delta since before the rival's change carries nothing of it either.
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    await sendAs(t.app, rivalUser, createDomains, {
      params: { siteId: rivalSite },
      body: { domains: [{ name: 'api.rival.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    const after = await state.sync();
    if (after?.type === 'delta') expect(after.changes).toEqual([]);
  });

  it('answers a bulk edit of many domains of one site as one delta', async () => {
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    const ids = await f.addDomains(Array.from({ length: 60 }, (_, i) => `bulk${i}.shop.example`));
    const added = await state.sync();
    expect(added?.type).toBe('delta');
    await asUser(setDomainsStatus, { params: { siteId: f.siteId }, body: { domainIDs: ids, status: 0 } });
    const answer = await state.sync();
    expect(answer?.type).toBe('delta');
    if (answer?.type !== 'delta') return;
    const bulk = answer.changes.filter((c) => c.kind === 'domain' && c.key.startsWith('bulk'));
    expect(bulk).toHaveLength(60);
    expect(bulk.every((c) => c.op === 'put' && (c.value as { enabled: boolean }).enabled === false)).toBe(true);
    // Nothing more to say: a poll without wait answers null.
    expect(await state.sync()).toBeNull();
    await expectConverged(state);
  });

  it('answers a full plane when since is older than the kept log or the plane hash differs', async () => {
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    // Another plane hash than the one answered at since: full.
    const wrong = state.plane === '000000000000' ? '000000000001' : '000000000000';
    const mismatch = await poll({ since: state.since, plane: wrong, meta: state.metaHash });
    expect(mismatch?.type).toBe('full');
    // A since the log never answered (ahead of its head): full.
    expect((await poll({ since: String(Number(state.since) + 1000) }))?.type).toBe('full');
    // Compacted away: the floor passed since.
    await t.db.database.db.execute(sql`UPDATE dp_state SET floor = head + 1`);
    await f.addDomains(['after-compaction.shop.example']);
    const old = await poll({ since: state.since, plane: state.plane, meta: state.metaHash });
    expect(old?.type).toBe('full');
  });

  it("keeps holding the poll of another operator's node when one operator writes, until its wait ends", async () => {
    const { user: otherUser, siteId: otherSite, node: otherNode } = await anotherOperator('quiet');
    const pollOther = async (query: Query) => {
      const res = await nodeSend(t.app, otherNode, getNodePlane, { query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as PlaneAnswer | null;
    };
    const theirs = (await pollOther({})) as PlaneAnswer;
    expect(theirs.type).toBe('full');
    const mine = new NodeState();
    mine.apply((await poll()) as PlaneAnswer);
    const started = Date.now();
    const held = pollOther({ since: theirs.to, plane: theirs.planeHash, meta: theirs.metaHash, wait: 3 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await f.addDomains(['while-another-holds.shop.example']);
    // The writer's node sees it; the other operator's node is not woken: its poll answers null when its wait ends.
    const seen = await mine.sync();
    expect(seen?.type === 'delta' ? seen.changes.map((c) => c.key) : []).toContain('while-another-holds.shop.example');
    expect(await held).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    // Its own operator's write still answers it at once, as a delta from where it was.
    const polledAt = Date.now();
    const again = pollOther({ since: theirs.to, plane: theirs.planeHash, meta: theirs.metaHash, wait: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sendAs(t.app, otherUser, createDomains, {
      params: { siteId: otherSite },
      body: { domains: [{ name: 'api.quiet.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    const answer = await again;
    // Woken by the write, not found by the poll's periodic re-check (RECHECK_MS after its first look).
    expect(Date.now() - polledAt).toBeLessThan(RECHECK_MS);
    expect(answer?.type).toBe('delta');
    if (answer?.type === 'delta') expect(answer.changes.map((c) => c.key)).toEqual(['api.quiet.example']);
  }, 30_000);

  it('drops the domains of a site whose end time passes, without any write, from a held poll', async () => {
    const site = await operatorCalls(t.app, f.client).site('ending', await rootId(t.app, 'user'), f.productId);
    const made = await asUser(createDomains, {
      params: { siteId: site },
      body: { domains: [{ name: 'www.ending.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    const served = () =>
      state.values().get(entryId('domain', 'www.ending.example')) as { enabled: boolean } | undefined;
    expect(served()?.enabled).toBe(true);
    await t.db.database.db.execute(
      sql`UPDATE sites SET expires_at = now() + interval '1.5 seconds' WHERE id = ${site}`,
    );
    // Not ended yet: nothing to say.
    expect(await state.sync()).toBeNull();
    const started = Date.now();
    const answer = await poll({ since: state.since, plane: state.plane, meta: state.metaHash, wait: 20 });
    expect(answer?.type).toBe('delta');
    state.apply(answer as PlaneAnswer);
    expect(served()?.enabled).toBe(false);
    // By a held poll's second re-check after its end (1.5 s): well within the snapshot path's 60 s.
    expect(Date.now() - started).toBeLessThan(1500 + 2 * RECHECK_MS);
    await expectConverged(state);
  }, 30_000);

  it('wakes a held poll when a change is made', async () => {
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    const started = Date.now();
    const held = poll({ since: state.since, plane: state.plane, meta: state.metaHash, wait: 10 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await f.addDomains(['woken.shop.example']);
    const answer = await held;
    expect(answer?.type).toBe('delta');
    // Woken by the change, not found by the poll's periodic re-check (RECHECK_MS after its first look).
    expect(Date.now() - started).toBeLessThan(RECHECK_MS);
    if (answer?.type === 'delta') expect(answer.changes.map((c) => c.key)).toContain('woken.shop.example');
  });

  it("reuses a site's parts for a change of one domain until a whole rebuild, here or in another process, moves them on", async () => {
    const a = t.app.rampart.planeEntries;
    // A second control plane's builder on the same database (as composition/edge.ts makes one).
    const b = new PlaneEntryBuilder(a['db'], a['transactions'], a['builder'], a['repository'], a['clock']);
    const projections = a['builder']['projections'];
    const siteId = await operatorCalls(t.app, f.client).site('parts', await rootId(t.app, 'user'), f.productId);
    const made = await asUser(createDomains, {
      params: { siteId },
      body: {
        domains: ['one', 'two', 'three'].map((n) => ({
          name: `${n}.parts.example`,
          upstreams: [{ ip: '127.0.0.1', port: 8080 }],
        })),
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const [one, two, three] = (made.json().data as { id: number }[]).map((d) => d.id) as [number, number, number];
    const forceSSL = async (id: number, by: PlaneEntryBuilder) => {
      const res = await asUser(setDomainsForceSSL, { params: { siteId }, body: { domainIDs: [id], forceSSL: true } });
      expect(res.statusCode, res.body).toBe(200);
      expect((await by.build()).changed).toBe(true);
    };
    const cacheIdOf = async (id: number) => {
      const [row] = rowsOf<{ cache: number | null }>(
        await t.db.database.db.execute(
          sql`SELECT (value->>'cacheId')::bigint AS cache FROM dp_entries WHERE kind = 'domain' AND domain_id = ${id}`,
        ),
      );
      return row?.cache === null || row?.cache === undefined ? null : Number(row.cache);
    };
    await a.build();
    await forceSSL(one, a);
    // Kept from there: the next change of one domain reads no site-level part.
    const cachePolicies = vi.spyOn(projections, 'cachePolicies');
    await forceSSL(two, a);
    expect(cachePolicies).not.toHaveBeenCalled();
    // The site's cache rule, built by the other process (a whole rebuild there): this process's kept
    // parts are of an older version, and the next change of a domain reads them again.
    const rule = await asUser(addCacheRules, { params: { siteId }, body: { data: [{ scope: 'all', ttl: 60 }] } });
    expect(rule.statusCode, rule.body).toBe(200);
    expect((await b.build()).changed).toBe(true);
    expect(await cacheIdOf(two)).toBe(siteId);
    cachePolicies.mockClear();
    await forceSSL(three, a);
    expect(cachePolicies).toHaveBeenCalledTimes(1);
    expect(await cacheIdOf(three)).toBe(siteId);
    cachePolicies.mockRestore();
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    await expectConverged(state);
  });

  it('compacts the log beyond its row count and its age, and answers a node behind it with a full plane', async () => {
    const entries = t.app.rampart.planeEntries;
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    const count = async () =>
      Number(
        (
          (await t.db.database.db.execute(sql`SELECT count(*)::int AS n FROM dp_changes`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]?.n,
      );
    try {
      // Beyond 3 rows behind the head: older rows go, and a since below the floor gets a full plane.
      entries.compactEveryMs = 0;
      entries.retention = { ms: 3_600_000, rows: 3 };
      await f.addDomains([
        'c1.shop.example',
        'c2.shop.example',
        'c3.shop.example',
        'c4.shop.example',
        'c5.shop.example',
      ]);
      await poll({ since: state.since, plane: state.plane, meta: state.metaHash }); // builds (and compacts)
      await f.addDomains(['c6.shop.example']);
      const behind = await poll({ since: state.since, plane: state.plane, meta: state.metaHash });
      expect(behind?.type).toBe('full');
      expect(await count()).toBeLessThanOrEqual(3);
      // Older than the retention: every row goes.
      state.apply(behind as PlaneAnswer);
      entries.retention = { ms: 0, rows: 1_000_000 };
      await new Promise((resolve) => setTimeout(resolve, 20));
      await f.addDomains(['c7.shop.example']);
      await poll();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await f.addDomains(['c8.shop.example']);
      expect((await poll({ since: state.since, plane: state.plane, meta: state.metaHash }))?.type).toBe('full');
      expect(await count()).toBeLessThanOrEqual(1);
    } finally {
      entries.retention = { ms: 3_600_000, rows: 200_000 };
      entries.compactEveryMs = 60_000;
    }
  });

  // The sizes measured: 10,000 domains in one site by default (the check that one domain's change
  // rebuilds nothing else holds at any size); DP_MEASURE_SIZES=10000,100000 adds the size
  // (about a minute more on PGlite: speed belongs to the benchmarks, not to every test run).
  const sizes = (process.env.DP_MEASURE_SIZES ?? '10000').split(',').map(Number);
  it(`rebuilds only the changed domain of a large site, and measures it with ${sizes.join(' and ')} domains present (printed, not asserted)`, async () => {
    const repo = new DomainsRepository(t.db.database.db);
    const entries = t.app.rampart.planeEntries;
    const state = new NodeState();
    state.apply((await poll()) as PlaneAnswer);
    const lines: string[] = [];
    for (const size of sizes) {
      const site = await operatorCalls(t.app, f.client).site(`big ${size}`, await rootId(t.app, 'user'), f.productId);
      let started = performance.now();
      const ids = await repo.insertMany(
        Array.from({ length: size }, (_, i) => ({
          siteId: site,
          name: `m${i}.big${size}.example`,
          proofStatus: 2 as const,
        })),
      );
      await t.db.database.db.execute(sql`INSERT INTO domain_upstreams (domain_id, ip, port)
        SELECT id, '127.0.0.1', 8080 FROM domains WHERE site_id = ${site}`);
      const insertMs = performance.now() - started;
      started = performance.now();
      const first = await state.sync();
      const firstMs = performance.now() - started;
      expect(first?.type).toBe('delta');
      if (first?.type === 'delta') expect(first.changes.filter((c) => c.kind === 'domain')).toHaveLength(size);
      // One domain of the large site: only its entry is rebuilt, never the whole site.
      const wholeSites = vi.spyOn(entries, 'siteEntries');
      const one = ids[4321] as number;
      await asUser(setDomainsForceSSL, { params: { siteId: site }, body: { domainIDs: [one], forceSSL: true } });
      started = performance.now();
      const built = await entries.build();
      const bigSiteMs = performance.now() - started;
      expect(built.changed).toBe(true);
      expect(wholeSites.mock.calls.flatMap(([siteIds]) => siteIds)).not.toContain(site);
      wholeSites.mockRestore();
      started = performance.now();
      const change = await state.sync();
      const bigAnswerMs = performance.now() - started;
      expect(change?.type === 'delta' ? change.changes.map((c) => c.key) : []).toEqual([`m4321.big${size}.example`]);
      await f.addDomains([`small-change-${size}.shop.example`]);
      started = performance.now();
      await entries.build();
      const smallSiteMs = performance.now() - started;
      started = performance.now();
      const small = await state.sync();
      const answerMs = performance.now() - started;
      expect(small?.type).toBe('delta');
      if (size <= 10_000) await expectConverged(state);
      lines.push(
        `${size} domains in one site: insert ${insertMs.toFixed(0)} ms; first build and delta of them ${firstMs.toFixed(0)} ms; ` +
          `one domain change in it built in ${bigSiteMs.toFixed(0)} ms, its delta answered in ${bigAnswerMs.toFixed(0)} ms; ` +
          `one domain added to a small site beside it built in ${smallSiteMs.toFixed(0)} ms, its delta answered in ${answerMs.toFixed(0)} ms`,
      );
    }
    console.log(`data-plane build (${t.db.database.driver}):\n  ${lines.join('\n  ')}`);
  }, 900_000);
});
