import type { EdgeStreamPort } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { renderNginxConf } from '../src/nginx/render.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { streamPort, tcpAsk, tcpEcho, udpAsk, udpEcho } from './helpers/layer4.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// A site's layer-4 ports on a real nginx: TCP and UDP proxied through the stream module, a port
// change applied by reload while HTTP keeps being served, and values outside the allowlists refused.

let edge: Edge;
let origin: Origin;
let tcpA: Awaited<ReturnType<typeof tcpEcho>>;
let tcpB: Awaited<ReturnType<typeof tcpEcho>>;
let udp: Awaited<ReturnType<typeof udpEcho>>;

beforeAll(async () => {
  origin = await startOrigin('web');
  tcpA = await tcpEcho('a');
  tcpB = await tcpEcho('b');
  udp = await udpEcho('u');
  edge = await startEdge();
  await edge.push(document('served', [domain(1, 'site.example.com', [upstream(origin.port)])]));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await new Promise((resolve) => tcpA?.server.close(resolve));
  await new Promise((resolve) => tcpB?.server.close(resolve));
  udp?.socket.close();
});

describe('layer-4 ports on a real nginx', () => {
  it('proxies TCP and UDP through site ports, and keeps serving HTTP', async () => {
    const [tcpPort, udpPort] = [await freePort(), await freePort()];
    const conf = edge.render({
      streamPorts: [
        streamPort(1, tcpPort, tcpA.port),
        streamPort(2, udpPort, udp.port, { protocol: 'udp', balance: 'ip_hash' }),
      ],
    });
    expect(conf).toContain('load_module /usr/lib/nginx/modules/ngx_stream_module.so;');
    expect(conf).toContain(`  upstream rampart_l4_1 {\n    server 127.0.0.1:${tcpA.port} weight=1;\n  }`);
    expect(conf).toContain(`    listen 127.0.0.1:${udpPort} udp;`);
    expect(conf).toContain('    hash $remote_addr consistent;');
    await edge.nginx.reload(conf);
    expect(await tcpAsk(tcpPort, 'hello')).toBe('a:hello');
    expect(await udpAsk(udpPort, 'ping')).toBe('u:ping');
    expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('web');
  });

  it('serves both protocols on one port, weights upstreams, and falls back to a backup', async () => {
    const port = await freePort();
    const dead = await freePort();
    await edge.nginx.reload(
      edge.render({
        streamPorts: [
          {
            id: 3,
            port,
            protocol: 'both',
            balance: 'round_robin',
            upstreams: [
              { ip: '127.0.0.1', port: dead, weight: 5, backup: false },
              { ip: '127.0.0.1', port: tcpB.port, weight: 1, backup: true },
            ],
          },
        ],
      }),
    );
    // The main upstream refuses connections: nginx moves on to the backup.
    expect(await tcpAsk(port, 'x')).toBe('b:x');
  });

  it('applies a port change by reload without dropping HTTP requests', async () => {
    const [first, second] = [await freePort(), await freePort()];
    await edge.nginx.reload(edge.render({ streamPorts: [streamPort(4, first, tcpA.port)] }));
    expect(await tcpAsk(first, 'one')).toBe('a:one');

    let failures = 0;
    let served = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        try {
          const answer = await request(edge.httpPort, 'site.example.com');
          if (answer.status === 200) served++;
          else failures++;
        } catch {
          failures++;
        }
      }
    })();
    const before = await edge.nginx.currentVersion();
    await edge.nginx.reload(edge.render({ streamPorts: [streamPort(4, second, tcpB.port)] }));
    expect(await edge.nginx.currentVersion()).not.toBe(before);
    expect(await tcpAsk(second, 'two')).toBe('b:two');
    running = false;
    await load;
    expect(served).toBeGreaterThan(0);
    expect(failures).toBe(0);
    // The old number is closed once the old workers are gone.
    await expect(tcpAsk(first, 'gone')).rejects.toThrow();
  });

  it('keeps the running configuration when nginx refuses the new one', async () => {
    const port = await freePort();
    await edge.nginx.reload(edge.render({ streamPorts: [streamPort(5, port, tcpA.port)] }));
    const version = await edge.nginx.currentVersion();
    // Every stream value passes the allowlists, so nginx's refusal comes from the test-only hook:
    // the port change in the same config must not go live either.
    const refused = edge.render(
      { streamPorts: [streamPort(5, port, tcpB.port)] },
      { serverSnippet: 'bogus_directive on;' },
    );
    await expect(edge.nginx.reload(refused)).rejects.toThrow();
    expect(await edge.nginx.currentVersion()).toBe(version);
    expect(await tcpAsk(port, 'still')).toBe('a:still');
  });

  it('refuses values outside the allowlists before nginx sees them', () => {
    const attempt = (ports: unknown[]) => () =>
      renderNginxConf({ ...edge.settings, streamPorts: ports as EdgeStreamPort[] });
    const good = streamPort(9, 40000, 40001);
    for (const ip of ['localhost', '127.0.0.1;', '127.0.0.1 weight=9', 'unix:/tmp/x', '::1%eth0', '10.0.0.1:80']) {
      expect(attempt([{ ...good, upstreams: [{ ip, port: 1, weight: 1, backup: false }] }])).toThrow(ZodError);
    }
    expect(attempt([{ ...good, protocol: 'sctp' }])).toThrow(ZodError);
    expect(attempt([{ ...good, balance: 'least_conn; include /etc/passwd' }])).toThrow(ZodError);
    expect(attempt([{ ...good, port: 0 }])).toThrow(ZodError);
    expect(attempt([{ ...good, port: '80;' }])).toThrow(ZodError);
    expect(attempt([{ ...good, extra: 1 }])).toThrow(ZodError);
    expect(attempt([{ ...good, upstreams: [] }])).toThrow(ZodError);
    expect(attempt([{ ...good, upstreams: [{ ...good.upstreams[0], backup: true }] }])).toThrow(ZodError);
    // A number twice, or one of the HTTP ports.
    expect(attempt([good, { ...good, id: 10 }])).toThrow(ZodError);
    expect(attempt([{ ...good, port: edge.httpPort }])).toThrow(ZodError);
    expect(attempt([good])).not.toThrow();
  });
});
