import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from './helpers/certificates.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort, httpsRequest, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The origins live on 127.0.0.2, the edge listens on 127.0.0.1: an origin can then answer on the
// very ports the edge listens on, which is what the port map sends a request to.
const ORIGIN_IP = '127.0.0.2';

let edge: Edge;
let httpA: number;
let httpB: number;
let httpsA: number;
const origins: Origin[] = [];
let onHttpA: Origin;
let onHttpB: Origin;
let onHttpsA: Origin;
let fixed: Origin;
let fixedTwo: Origin;
let fixedTls: Origin;

beforeAll(async () => {
  [httpA, httpB, httpsA] = [await freePort(), await freePort(), await freePort()];
  const originCert = await makeCertificate('origin.example.net');
  const tls = { cert: originCert.certPem, key: originCert.keyPem };
  onHttpA = await startOrigin('on-http-a', { address: ORIGIN_IP, port: httpA });
  onHttpB = await startOrigin('on-http-b', { address: ORIGIN_IP, port: httpB });
  onHttpsA = await startOrigin('on-https-a', { address: ORIGIN_IP, port: httpsA, tls });
  fixed = await startOrigin('fixed', { address: ORIGIN_IP });
  fixedTwo = await startOrigin('fixed-two', { address: ORIGIN_IP });
  fixedTls = await startOrigin('fixed-tls', { address: ORIGIN_IP, tls });
  origins.push(onHttpA, onHttpB, onHttpsA, fixed, fixedTwo, fixedTls);
  edge = await startEdge({ httpPorts: [httpA, httpB], httpsPorts: [httpsA] });
  const [mapCert, tlsCert] = await Promise.all([
    makeCertificate('map.example.com'),
    makeCertificate('tls-map.example.com'),
  ]);
  const at = (port: number) => upstream(port, { ip: ORIGIN_IP });
  await edge.push(
    document(
      'port-map-1',
      [
        domain(1, 'map.example.com', [at(fixed.port)], { certificateId: 11, origin: { portMap: true } }),
        domain(2, 'plain.example.com', [at(fixed.port)]),
        domain(3, 'tls-map.example.com', [at(fixedTls.port)], {
          certificateId: 12,
          origin: { scheme: 'https', host: 'origin.example.net', portMap: true },
        }),
        domain(4, 'pool-map.example.com', [at(fixed.port), at(fixedTwo.port)], { origin: { portMap: true } }),
      ],
      [
        { id: 11, ...mapCert },
        { id: 12, ...tlsCert },
      ],
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await Promise.all(origins.map((o) => o.close()));
});

describe('port map', () => {
  it('sends a request on each HTTP listen port to the same port of an HTTP origin', async () => {
    const a = await request(httpA, 'map.example.com');
    expect(a.status).toBe(200);
    expect(servedBy(a.body)).toBe('on-http-a');
    const b = await request(httpB, 'map.example.com');
    expect(b.status).toBe(200);
    expect(servedBy(b.body)).toBe('on-http-b');
    expect(fixed.seen).toHaveLength(0);
  });

  it("keeps the upstream's port on the other protocol's listeners", async () => {
    const answer = await httpsRequest(httpsA, 'map.example.com');
    expect(answer.status).toBe(200);
    expect(servedBy(answer.body)).toBe('fixed');

    const plainOverHttp = await request(httpA, 'tls-map.example.com');
    expect(plainOverHttp.status).toBe(200);
    expect(servedBy(plainOverHttp.body)).toBe('fixed-tls');
  });

  it('sends a request on the HTTPS listen port to the same port of an HTTPS origin', async () => {
    const answer = await httpsRequest(httpsA, 'tls-map.example.com');
    expect(answer.status).toBe(200);
    expect(servedBy(answer.body)).toBe('on-https-a');
    expect(onHttpsA.seen.at(-1)?.sni).toBe('origin.example.net');
  });

  it('maps every peer of a pool of upstreams', async () => {
    const before = fixed.seen.length;
    for (let i = 0; i < 4; i++) {
      expect(servedBy((await request(httpB, 'pool-map.example.com')).body)).toBe('on-http-b');
    }
    expect(fixed.seen).toHaveLength(before);
    expect(fixedTwo.seen).toHaveLength(0);
  });

  it("uses the upstream's port for a domain without the map, on every listener", async () => {
    for (const port of [httpA, httpB]) {
      const answer = await request(port, 'plain.example.com');
      expect(answer.status).toBe(200);
      expect(servedBy(answer.body)).toBe('fixed');
    }
  });

  it('follows a push that turns the map off', async () => {
    await edge.push(document('port-map-2', [domain(1, 'map.example.com', [upstream(fixed.port, { ip: ORIGIN_IP })])]));
    expect(servedBy((await request(httpB, 'map.example.com')).body)).toBe('fixed');
  });

  it.each([
    ['a string', '"yes"'],
    ['null', 'null'],
    ['a number', '1'],
  ])('refuses a port map that is %s', async (_label, value) => {
    const body = JSON.stringify(
      document('port-map-bad', [domain(1, 'map.example.com', [upstream(fixed.port, { ip: ORIGIN_IP })])]),
    ).replace('"portMap":false', `"portMap":${value}`);
    expect(body).toContain(`"portMap":${value}`);
    const answer = await edge.putRaw(body);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('domains[0].origin.portMap');
    // The node keeps serving what it had.
    expect(servedBy((await request(httpB, 'map.example.com')).body)).toBe('fixed');
  });
});
