import net from 'node:net';
import {
  ALL_ROUTES,
  type AnyRoute,
  clientCreateLogPushEvent,
  clientTestLogPush,
  clientUpdateLogPushEvent,
  outgoingTargetFields,
  saveAcmeSetting,
  saveDnsSetting,
  saveEmailSetting,
  testDnsSetting,
  testEmailSetting,
  userCreateLogPushEvent,
  userTestLogPush,
  userUpdateLogPushEvent,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver, TARGET_REFUSED_MESSAGE } from '../src/platform/http/target-guard.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Every place the contract takes an outgoing target (the fields registered with `outgoingTarget`,
// found by walking every route's request) is tried with each refused form, on save and on use,
// with private targets refused; the same saves pass where the installation allows private targets.
// A TCP listener on loopback counts what reaches it: nothing may, and the reply must be the same
// whether something listens on the port or not.

/** Names the test resolver knows (the system's resolvers are never asked). */
const resolver: Resolver = async (host) => {
  const answer = (address: string) => [{ address, family: net.isIP(address) }];
  if (host === 'localhost' || host === 'loop.test') return answer('127.0.0.1');
  if (host === 'internal.test') return answer('10.0.0.7');
  if (host === 'metadata.test') return answer('169.254.169.254');
  // A rebinding name: public when first asked (the save), loopback after.
  const m = /^rebind\d+\.test$/.exec(host);
  if (m) {
    const n = (asked.get(host) ?? 0) + 1;
    asked.set(host, n);
    return answer(n === 1 ? '192.88.98.1' : '127.0.0.1');
  }
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const asked = new Map<string, number>();
let rebinds = 0;
const rebindName = () => `rebind${++rebinds}.test`;

/** The hosts tried, as a URL or `host:port` writes them (`v6`: the bare form for a lone host field). */
const REFUSED_HOSTS: readonly { host: string; bare?: string }[] = [
  { host: '127.0.0.1' },
  { host: 'localhost' },
  { host: 'loop.test' },
  { host: '[::1]', bare: '::1' },
  { host: '169.254.169.254' },
  { host: 'metadata.test' },
  { host: '10.1.2.3' },
  { host: 'internal.test' },
  { host: '100.64.0.1' },
  { host: '[::ffff:127.0.0.1]', bare: '::ffff:127.0.0.1' },
  { host: '[64:ff9b::7f00:1]', bare: '64:ff9b::7f00:1' },
  { host: '[fd00::1]', bare: 'fd00::1' },
  { host: '0.0.0.0' },
  { host: '2130706433' },
  { host: '0177.0.0.1' },
  { host: '0x7f.1' },
];

type Form = 'url' | 'host' | 'hostPort';
const targetIn = (form: Form, h: { host: string; bare?: string }, port: number) =>
  form === 'url' ? `http://${h.host}:${port}/` : form === 'hostPort' ? `${h.host}:${port}` : (h.bare ?? h.host);

interface Ctx {
  t: TestApp;
  token: Token;
  operatorId: number;
}

/** How one outgoing field is saved and then used; `body` names the target and its port. */
interface Probe {
  readonly route: AnyRoute;
  readonly tier: 'client' | 'user';
  readonly field: string;
  body(ctx: Ctx, target: string, port: number): Promise<Record<string, unknown>>;
  /** Uses what the save stored (or, for a call that uses what it is given, is the call): the refusal's words, or null if it connected. */
  use(ctx: Ctx, saved: Record<string, unknown>, reply: Record<string, unknown>): Promise<string>;
}

const powerdns = (apiUrl: string) => ({ type: 'powerdns', apiUrl, apiKey: 'k', zone: 'cdn.test' });
const rfc2136 = (server: string) => ({
  type: 'rfc2136',
  server,
  zone: 'cdn.test',
  keyName: 'k',
  algorithm: 'hmac-sha256',
  secret: 'c2VjcmV0',
});
const smtp = (host: string, port: number) => ({ host, port, tlsMode: 'none', user: '', from: 'alerts@rampart.test' });
const destination = (form: Form, target: string, port: number) =>
  form === 'host' ? { kind: 'syslog', host: target, port, transport: 'tcp' } : { kind: 'webhook', url: target };

/** The provider test with what was stored: the use of a saved DNS setting. */
async function useDns(ctx: Ctx): Promise<string> {
  const provider = await ctx.t.app.rampart.dnsSettings.providerOf(ctx.operatorId);
  return provider.test().then(
    () => 'connected',
    (e: Error) => e.message,
  );
}
const reasonOf = (reply: Record<string, unknown>) =>
  String((reply.extra as { reason?: string } | undefined)?.reason ?? JSON.stringify(reply));

/** The event each update probe changes, one per app and probe (an account holds at most 10). */
const updated = new WeakMap<TestApp, Map<string, number>>();

function logPushProbes(tier: 'client' | 'user', form: Form): Probe[] {
  const create = tier === 'client' ? clientCreateLogPushEvent : userCreateLogPushEvent;
  const update = tier === 'client' ? clientUpdateLogPushEvent : userUpdateLogPushEvent;
  const test = tier === 'client' ? clientTestLogPush : userTestLogPush;
  const field = form === 'host' ? 'destination.host' : 'destination.url';
  const useEvent = async (ctx: Ctx, id: number) => {
    const res = await sendAs(ctx.t.app, ctx.token, test, { body: { id } });
    const data = res.json().data as { ok: boolean; error: string | null };
    return data.ok ? 'connected' : (data.error ?? '');
  };
  const name = `probe-${tier}-${form}`;
  return [
    {
      route: create,
      tier,
      field,
      body: async (_ctx, target, port) => ({ name, type: 'access', destination: destination(form, target, port) }),
      use: (ctx, _saved, reply) => useEvent(ctx, (reply.data as { id: number }).id),
    },
    {
      route: update,
      tier,
      field,
      body: async (ctx, target, port) => {
        let id = updated.get(ctx.t)?.get(name);
        if (id === undefined) {
          const made = await sendAs(ctx.t.app, ctx.token, create, {
            body: { name, type: 'access', destination: { kind: 'webhook', url: 'https://1.1.1.1/' } },
          } as never);
          id = (made.json() as unknown as { data: { id: number } }).data.id;
          updated.set(ctx.t, new Map([...(updated.get(ctx.t) ?? []), [name, id]]));
        }
        return { id, name, type: 'access', destination: destination(form, target, port) };
      },
      use: (ctx, saved) => useEvent(ctx, saved.id as number),
    },
  ];
}

const PROBES: readonly Probe[] = [
  {
    route: saveDnsSetting,
    tier: 'client',
    field: 'apiUrl',
    body: async (_ctx, target) => powerdns(target),
    use: (ctx) => useDns(ctx),
  },
  {
    route: saveDnsSetting,
    tier: 'client',
    field: 'server',
    body: async (_ctx, target) => rfc2136(target),
    use: (ctx) => useDns(ctx),
  },
  {
    route: testDnsSetting,
    tier: 'client',
    field: 'apiUrl',
    body: async (_ctx, target) => powerdns(target),
    use: async (_ctx, _saved, reply) => reasonOf(reply),
  },
  {
    route: testDnsSetting,
    tier: 'client',
    field: 'server',
    body: async (_ctx, target) => rfc2136(target),
    use: async (_ctx, _saved, reply) => reasonOf(reply),
  },
  {
    route: saveEmailSetting,
    tier: 'client',
    field: 'host',
    body: async (_ctx, target, port) => smtp(target, port),
    use: (ctx) =>
      ctx.t.app.rampart.mailer.send({ to: 'ops@rampart.test', subject: 's', text: 't' }, ctx.operatorId).then(
        () => 'connected',
        (e: Error) => e.message,
      ),
  },
  {
    route: testEmailSetting,
    tier: 'client',
    field: 'host',
    body: async (_ctx, target, port) => ({ ...smtp(target, port), to: 'ops@rampart.test' }),
    use: async (_ctx, _saved, reply) => reasonOf(reply),
  },
  {
    route: saveAcmeSetting,
    tier: 'client',
    field: 'directoryUrl',
    body: async (_ctx, target) => ({ ca: 'custom', directoryUrl: target }),
    use: (ctx) =>
      ctx.t.app.rampart.autoCertificatesJob.acmeSettings.clientFor(ctx.operatorId).then(
        () => 'connected',
        (e: Error) => e.message,
      ),
  },
  ...logPushProbes('user', 'url'),
  ...logPushProbes('user', 'host'),
  ...logPushProbes('client', 'url'),
  ...logPushProbes('client', 'host'),
];

const keyOf = (routeId: string, field: string) => `${routeId} ${field}`;
/** The apps here call each test route once per refused form and port: more than the per-account limit of such calls, which is not what this file tests. */
const MANY_CALLS = { limit: 1_000, windowMs: 60_000 };

/** Every outgoing-target field of the contract, with its form. */
function contractTargets(): Map<string, Form> {
  const found = new Map<string, Form>();
  for (const route of ALL_ROUTES) {
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = route.request[part];
      if (!schema) continue;
      for (const f of outgoingTargetFields(schema)) found.set(keyOf(route.id, f.path), f.form);
    }
  }
  return found;
}

/** A loopback TCP listener counting connections (it answers nothing). */
async function counter() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('outgoing targets', () => {
  it('has a probe for every outgoing-target field the contract declares, and no other', () => {
    const declared = contractTargets();
    expect([...declared.keys()].sort()).toEqual(PROBES.map((p) => keyOf(p.route.id, p.field)).sort());
    expect(declared.size).toBeGreaterThan(0);
  });

  describe('with private targets refused', () => {
    let strict: TestApp;
    const tokens = new Map<string, Token>();
    let listening: Awaited<ReturnType<typeof counter>>;
    let closedPort: number;

    beforeAll(async () => {
      strict = await createTestApp({
        config: { allowPrivateTargets: false },
        targetResolver: resolver,
        onDemandSendLimit: MANY_CALLS,
      });
      for (const tier of ['client', 'user'] as const) tokens.set(tier, await signIn(strict.app, tier));
      listening = await counter();
      const closed = await counter();
      closedPort = closed.port;
      await closed.close();
    });
    afterAll(async () => {
      await listening?.close();
      await strict?.close();
    });

    const forms = contractTargets();
    for (const probe of PROBES) {
      const form = forms.get(keyOf(probe.route.id, probe.field)) ?? 'url';
      it(`${probe.route.id} refuses each internal form of ${probe.field} on save, whatever listens there`, async () => {
        const ctx: Ctx = {
          t: strict,
          token: tokens.get(probe.tier) as Token,
          operatorId: await rootId(strict.app, 'client'),
        };
        for (const h of REFUSED_HOSTS) {
          const replies: string[] = [];
          for (const port of [listening.port, closedPort]) {
            const body = await probe.body(ctx, targetIn(form, h, port), port);
            const res = await sendAs(strict.app, ctx.token, probe.route, { body: rawInput(body) } as never);
            const reply = res.json() as { code: number; extra?: { fields?: { field: string }[] } };
            expect(reply.code, `${h.host}: ${res.body}`).toBe(101003);
            expect(
              reply.extra?.fields?.map((f) => f.field),
              h.host,
            ).toEqual([probe.field]);
            replies.push(res.body.replaceAll(String(port), 'PORT'));
          }
          expect(replies[0], h.host).toBe(replies[1]);
        }
        expect(listening.connections).toBe(0);
      });

      it(`${probe.route.id} ${probe.field}: a name that answered a public address when saved is refused when used`, async () => {
        const ctx: Ctx = {
          t: strict,
          token: tokens.get(probe.tier) as Token,
          operatorId: await rootId(strict.app, 'client'),
        };
        const name = rebindName();
        const h = { host: name };
        const body = await probe.body(ctx, targetIn(form, h, listening.port), listening.port);
        const res = await sendAs(strict.app, ctx.token, probe.route, { body: rawInput(body) } as never);
        const reply = res.json() as unknown as Record<string, unknown>;
        const said = await probe.use(ctx, body, reply);
        expect(said).toContain(TARGET_REFUSED_MESSAGE);
        expect(said).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|timeout|within/i);
        expect(listening.connections).toBe(0);
      });
    }
  });

  describe('with private targets allowed', () => {
    let lax: TestApp;
    beforeAll(async () => {
      lax = await createTestApp({ targetResolver: resolver, onDemandSendLimit: MANY_CALLS });
    });
    afterAll(async () => {
      await lax?.close();
    });

    it('saves every outgoing-target field pointing at loopback', async () => {
      const forms = contractTargets();
      const ctx = { t: lax, operatorId: await rootId(lax.app, 'client') };
      for (const probe of PROBES) {
        const token = await signIn(lax.app, probe.tier);
        const form = forms.get(keyOf(probe.route.id, probe.field)) ?? 'url';
        const body = await probe.body({ ...ctx, token }, targetIn(form, { host: '127.0.0.1' }, 9), 9);
        const res = await sendAs(lax.app, token, probe.route, { body: rawInput(body) } as never);
        // The save passes the guard; a call that then connects fails on the closed port with its own code.
        expect(res.json().code === 101003, `${probe.route.id}: ${res.body}`).toBe(false);
      }
    });
  });
});
