import http2 from 'node:http2';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from './helpers/certificates.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { httpsRequest } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

let edge: Edge;
let plain: Origin;
let secure: Origin;

/** The subject CN of the certificate the edge presents for `servername` (no SNI when undefined). */
function peerCommonName(port: number, servername?: string): Promise<{ cn: string; alpn: string | false }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host: '127.0.0.1',
        port,
        rejectUnauthorized: false,
        ALPNProtocols: ['h2', 'http/1.1'],
        ...(servername ? { servername } : {}),
      },
      () => {
        const cn = socket.getPeerCertificate().subject?.CN;
        const alpn = socket.alpnProtocol ?? false;
        socket.end();
        resolve({ cn: Array.isArray(cn) ? cn.join(',') : String(cn), alpn });
      },
    );
    socket.on('error', reject);
  });
}

/** `count` GETs as concurrent streams of one HTTP/2 connection; resolves with their statuses. */
async function h2Streams(port: number, host: string, count: number): Promise<number[]> {
  const session = http2.connect(`https://127.0.0.1:${port}`, { servername: host, rejectUnauthorized: false });
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        (_, i) =>
          new Promise<number>((resolve, reject) => {
            const stream = session.request({ ':path': `/h2-${i}`, ':authority': host });
            let status = 0;
            stream.on('response', (headers) => {
              status = Number(headers[':status']);
            });
            stream.on('data', () => undefined);
            stream.on('end', () => resolve(status));
            stream.on('error', reject);
          }),
      ),
    );
  } finally {
    session.close();
  }
}

beforeAll(async () => {
  const originCert = await makeCertificate('origin.example.net');
  plain = await startOrigin('plain');
  secure = await startOrigin('secure', { tls: { cert: originCert.certPem, key: originCert.keyPem } });
  edge = await startEdge();
  const [one, two] = await Promise.all([makeCertificate('one.example.com'), makeCertificate('two.example.com')]);
  await edge.push(
    document(
      'tls-1',
      [
        domain(1, 'one.example.com', [upstream(plain.port)], { certificateId: 11, forceSSL: true }),
        domain(2, 'two.example.com', [upstream(plain.port)], { certificateId: 12 }),
        domain(3, 'nocert.example.com', [upstream(plain.port)]),
        domain(4, 'tls-origin.example.com', [upstream(secure.port)], {
          origin: { scheme: 'https', host: 'origin.example.net' },
        }),
        domain(5, 'tls-origin-own-host.example.com', [upstream(secure.port)], { origin: { scheme: 'https' } }),
      ],
      [
        { id: 11, ...one },
        { id: 12, ...two },
      ],
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await plain?.close();
  await secure?.close();
});

describe('certificates by SNI', () => {
  it('presents each domain its own uploaded certificate', async () => {
    expect((await peerCommonName(edge.httpsPort, 'one.example.com')).cn).toBe('one.example.com');
    expect((await peerCommonName(edge.httpsPort, 'two.example.com')).cn).toBe('two.example.com');
    expect((await peerCommonName(edge.httpsPort, 'ONE.example.com')).cn).toBe('one.example.com');
  });

  it('keeps the default certificate for an unknown name, a domain without one, or no SNI', async () => {
    expect((await peerCommonName(edge.httpsPort, 'unknown.example.com')).cn).toBe('rampart-default');
    expect((await peerCommonName(edge.httpsPort, 'nocert.example.com')).cn).toBe('rampart-default');
    expect((await peerCommonName(edge.httpsPort)).cn).toBe('rampart-default');
  });

  it('negotiates HTTP/2 when the zone enables it', async () => {
    expect((await peerCommonName(edge.httpsPort, 'one.example.com')).alpn).toBe('h2');
  });

  it('gives every stream of one HTTP/2 connection its own request id', async () => {
    const before = plain.seen.length;
    expect(await h2Streams(edge.httpsPort, 'two.example.com', 6)).toEqual([200, 200, 200, 200, 200, 200]);
    const ids = plain.seen.slice(before).map((s) => s.requestId);
    expect(ids).toHaveLength(6);
    for (const id of ids) expect(id).toMatch(/^edge-\d+-[0-9a-f]+-\d+$/);
    expect(new Set(ids).size).toBe(6);
  });

  it('serves a forceSSL domain over HTTPS without redirecting again', async () => {
    const answer = await httpsRequest(edge.httpsPort, 'one.example.com', '/over-tls');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ server: 'plain', url: '/over-tls' });
  });
});

describe('HTTPS origins', () => {
  it('sends the origin host as SNI and Host header to an HTTPS origin', async () => {
    const answer = await httpsRequest(edge.httpsPort, 'tls-origin.example.com', '/tls');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ server: 'secure', host: 'origin.example.net' });
    expect(secure.seen.at(-1)?.sni).toBe('origin.example.net');
  });

  it('passes the method and the request body through to an HTTPS origin', async () => {
    const body = 'x'.repeat(100_000);
    const answer = await httpsRequest(edge.httpsPort, 'tls-origin.example.com', '/upload', { method: 'POST', body });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ server: 'secure', url: '/upload', bodyLength: body.length });
    expect(secure.seen.at(-1)).toMatchObject({ method: 'POST', url: '/upload' });
  });

  it("sends the request's host as SNI when the origin host is null", async () => {
    const answer = await httpsRequest(edge.httpsPort, 'tls-origin-own-host.example.com');
    expect(answer.status).toBe(200);
    expect(secure.seen.at(-1)).toMatchObject({
      host: 'tls-origin-own-host.example.com',
      sni: 'tls-origin-own-host.example.com',
    });
  });
});
