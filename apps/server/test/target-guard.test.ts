import http from 'node:http';
import net from 'node:net';
import * as acme from 'acme-client';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedAcmeClient } from '../src/modules/auto-certificates/acme-guard.js';
import { guardedRequest } from '../src/platform/http/guarded-request.js';
import {
  canonicalHost,
  type Resolver,
  TARGET_REFUSED_MESSAGE,
  TargetGuard,
  TargetRefusedError,
} from '../src/platform/http/target-guard.js';

// The target guard of every outgoing connection (platform/http/target-guard.ts): the address rule
// for both families, the pin (the socket connects to the address checked, never to a second
// answer), redirects, and acme-client's later URLs. Listeners on loopback count what reaches them.

/** A TCP listener on `host` counting the connections it takes (HTTP 200 to any request). */
async function listener(host = '127.0.0.1', redirectTo?: string, port = 0) {
  let connections = 0;
  const server = http.createServer((_req, res) => {
    if (redirectTo) res.writeHead(302, { location: redirectTo }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const bound = (server.address() as net.AddressInfo).port;
  return {
    port: bound,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close();
});
async function open(host?: string, redirectTo?: string, port?: number) {
  const l = await listener(host, redirectTo, port);
  opened.push(l);
  return l;
}

/** A resolver answering from a table, one answer per call in turn (the last one repeats). */
function resolverOf(table: Record<string, string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const n = calls.filter((c) => c === host).length - 1;
    const list = answers[Math.min(n, answers.length - 1)] ?? [];
    return list.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(fn, { calls });
}

describe('the address rule', () => {
  const refused = [
    // IPv4: loopback, unspecified, private, CGNAT, link-local (metadata), multicast, broadcast, reserved, documentation
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    // IPv4 written the ways URL parsing reads as 127.0.0.1
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '0x7f000001',
    // IPv6: loopback, unspecified, ULA, link-local, multicast, documentation
    '::1',
    '[::1]',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    // IPv6 forms that carry a refused IPv4 address
    '::ffff:127.0.0.1',
    '[::ffff:7f00:1]',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::1',
  ];
  const publicOnes = ['1.1.1.1', '8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '[2001:4860:4860::8888]'];
  const strict = new TargetGuard(false, resolverOf({}));

  it.each(refused)('refuses %s with private targets off, on save and on use', async (host) => {
    expect(await strict.savable(host)).toBe(false);
    await expect(strict.addresses(host)).rejects.toBeInstanceOf(TargetRefusedError);
  });

  it.each(publicOnes)('allows the public address %s', async (host) => {
    expect(await strict.savable(host)).toBe(true);
    expect((await strict.addresses(host)).map((a) => a.address)).toEqual([canonicalHost(host)]);
  });

  it('allows loopback and private targets when the installation allows them, never unspecified or multicast', async () => {
    const lax = new TargetGuard(true, resolverOf({}));
    for (const host of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(await lax.savable(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '224.0.0.1', 'ff02::1']) {
      expect(await lax.savable(host), host).toBe(false);
      await expect(lax.addresses(host)).rejects.toBeInstanceOf(TargetRefusedError);
    }
  });

  it('judges a name by every address it resolves to', async () => {
    const guard = new TargetGuard(
      false,
      resolverOf({
        localhost: [['127.0.0.1', '::1']],
        'mixed.test': [['1.1.1.1', '10.0.0.1']],
        'v6only.test': [['::1']],
        'mapped.test': [['::ffff:10.1.2.3']],
        'fine.test': [['1.1.1.1', '2606:4700:4700::1111']],
      }),
    );
    for (const host of ['localhost', 'mixed.test', 'v6only.test', 'mapped.test']) {
      expect(await guard.savable(host), host).toBe(false);
      await expect(guard.addresses(host), host).rejects.toBeInstanceOf(TargetRefusedError);
    }
    expect(await guard.savable('fine.test')).toBe(true);
    expect((await guard.addresses('fine.test.')).length).toBe(2);
    // A name that does not resolve now may be saved; it is refused when used, with the same words.
    expect(await guard.savable('nowhere.test')).toBe(true);
    const unresolved = await guard.addresses('nowhere.test').catch((e: Error) => e);
    const internal = await guard.addresses('localhost').catch((e: Error) => e);
    expect(unresolved).toBeInstanceOf(TargetRefusedError);
    expect((unresolved as Error).message).toBe(TARGET_REFUSED_MESSAGE);
    expect((internal as Error).message).toBe(TARGET_REFUSED_MESSAGE);
  });
});

describe('the connection', () => {
  it('pins the checked address: a second resolution answering elsewhere is never asked', async () => {
    const first = await open('127.0.0.1');
    // The same port on another loopback address: where a second resolution would send the connection.
    const second = await open('127.0.0.2', undefined, first.port);
    const resolver = resolverOf({ 'rebind.test': [['127.0.0.1'], ['127.0.0.2']] });
    const guard = new TargetGuard(true, resolver);
    const answer = await guardedRequest(guard, `http://rebind.test:${first.port}/`, { timeoutMs: 5000 });
    expect(answer.status).toBe(200);
    expect(first.connections).toBe(1);
    expect(second.connections).toBe(0);
    expect(resolver.calls).toEqual(['rebind.test']);
  });

  it('never connects to loopback when the name answered a public address at the check', async () => {
    const loopback = await open('127.0.0.1');
    const resolver = resolverOf({ 'rebind.test': [['192.88.98.1'], ['127.0.0.1']] });
    const guard = new TargetGuard(false, resolver);
    // The pinned public address is not reachable from the test machine: the request fails, and
    // nothing reaches the loopback listener whatever a later lookup would say.
    await guardedRequest(guard, `http://rebind.test:${loopback.port}/`, { timeoutMs: 1000 }).catch(() => null);
    expect(loopback.connections).toBe(0);
    expect(resolver.calls).toEqual(['rebind.test']);
    // And a name that answers loopback at the check is refused before any connection.
    await expect(guardedRequest(guard, `http://rebind.test:${loopback.port}/`, { timeoutMs: 1000 })).rejects.toThrow(
      TargetRefusedError,
    );
    expect(loopback.connections).toBe(0);
  });

  it('does not follow a redirect (to a refused address or any other)', async () => {
    // 0.0.0.0 is refused even where private targets are allowed; on Linux a connection to it reaches loopback.
    const inner = await open('127.0.0.1');
    const outer = await open('127.0.0.1', `http://0.0.0.0:${inner.port}/`);
    const guard = new TargetGuard(true, resolverOf({}));
    const answer = await guardedRequest(guard, `http://127.0.0.1:${outer.port}/`, { timeoutMs: 5000 });
    expect(answer.status).toBe(302);
    expect(inner.connections).toBe(0);
    await expect(guardedRequest(guard, `http://0.0.0.0:${inner.port}/`, { timeoutMs: 5000 })).rejects.toThrow(
      TargetRefusedError,
    );
    expect(inner.connections).toBe(0);
  });

  it("checks every URL an ACME CA hands back, not only the directory's", async () => {
    const internal = await open('127.0.0.1');
    // A CA directory on an allowed address naming its other endpoints on a refused one.
    const ca = http.createServer((req, res) => {
      if (req.url === '/directory') {
        const elsewhere = `http://0.0.0.0:${internal.port}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            newNonce: `${elsewhere}/nonce`,
            newAccount: `${elsewhere}/account`,
            newOrder: `${elsewhere}/order`,
          }),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => ca.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => ca.close(() => resolve())) });
    const directoryUrl = `http://127.0.0.1:${(ca.address() as net.AddressInfo).port}/directory`;
    const client = guardedAcmeClient(
      { directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() },
      new TargetGuard(true, resolverOf({})),
      '',
    );
    await expect(client.createAccount({ termsOfServiceAgreed: true })).rejects.toThrow(TARGET_REFUSED_MESSAGE);
    expect(internal.connections).toBe(0);
    // A client made without the guard cannot send at all (the shared axios instance refuses it).
    const bare = new acme.Client({ directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() });
    await expect(bare.getTermsOfServiceUrl()).rejects.toThrow(/outside the target guard/);
  });
});
