import type { AnyRoute } from '@rampart/contract';
import {
  createZone,
  createZonePorts,
  deleteZonePorts,
  getNodeSnapshot,
  getZoneNginx,
  initializeNodes,
  listZonePorts,
  OPERATOR_NGINX_SECTION_ROUTES,
  setZoneNginxEnable,
  updateZonePort,
  zoneNginxCustom,
  zoneNginxHttp,
  zoneNginxStream,
  zoneNginxWorker,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, rawInput, refusedFields, send, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let other: { accessToken: string };
let signInUser: { accessToken: string };
let zoneId: number;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  other = await signInOtherOperator(t.app, 'operator-two');
  signInUser = await signIn(t.app, 'user');
  zoneId = (await call(createZone, { body: { name: 'Asia' } })).json().data.id;
});
afterAll(async () => t.close());

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const ports = async (zone = zoneId) =>
  (await call(listZonePorts, { params: { zoneID: zone } }))
    .json()
    .data.map((p: { port: number; portType: string }) => `${p.port}/${p.portType}`);

async function initializedNode(hostname: string): Promise<JoinedNode> {
  const node = await joinNode(t.app, client, hostname);
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
  return node;
}
const snapshotOf = async (node: JoinedNode) => (await nodeSend(t.app, node, getNodeSnapshot, undefined)).json().data;

describe('zone listen ports', () => {
  it('gives a new zone 80 (HTTP) and 443 (HTTPS)', async () => {
    expect(await ports()).toEqual(['80/http', '443/https']);
  });

  it('adds, changes and removes ports, all or none, and carries them to the nodes of the zone', async () => {
    const zone = (await call(createZone, { body: { name: 'Ports' } })).json().data.id;
    const added = await call(createZonePorts, {
      params: { zoneID: zone },
      body: {
        ports: [
          { port: 8080, portType: 'http' },
          { port: '8443', portType: 'https' },
        ],
      },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().total).toBe(4);
    expect(await ports(zone)).toEqual(['80/http', '443/https', '8080/http', '8443/https']);

    const id8080 = added.json().data.find((p: { port: number }) => p.port === 8080)!.id;
    expect(
      (await call(updateZonePort, { params: { zoneID: zone }, body: { id: id8080, port: 8081, portType: 'https' } }))
        .statusCode,
    ).toBe(200);
    expect(await ports(zone)).toEqual(['80/http', '443/https', '8081/https', '8443/https']);

    const node = await joinNode(t.app, client, 'edge-ports');
    await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zone } });
    expect((await snapshotOf(node)).listen).toEqual({ httpPorts: [80], httpsPorts: [443, 8081, 8443], http2: true });

    const id80 = added.json().data.find((p: { port: number }) => p.port === 80)!.id;
    expect((await call(deleteZonePorts, { params: { zoneID: zone }, body: { ids: [id80] } })).statusCode).toBe(200);
    expect((await snapshotOf(node)).listen.httpPorts).toEqual([]);
  });

  it('refuses a port twice, a reserved port and more than 16 of a type, writing nothing', async () => {
    const dup = await call(createZonePorts, {
      params: { zoneID: zoneId },
      body: {
        ports: [
          { port: 8000, portType: 'http' },
          { port: 443, portType: 'http' },
          { port: 8000, portType: 'https' },
          { port: 9180, portType: 'http' },
        ],
      },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().code).toBe(101003);
    expect(refusedFields(dup)).toEqual([
      'ports.1.port:portInUse',
      'ports.2.port:portInUse',
      'ports.3.port:portReserved',
    ]);
    expect(dup.json().extra.fields[0].message).toBe('Port 443 is already used in this zone');

    const many = Array.from({ length: 16 }, (_, i) => ({ port: 10_000 + i, portType: 'http' as const }));
    const tooMany = await call(createZonePorts, { params: { zoneID: zoneId }, body: { ports: many } });
    expect(tooMany.json().code).toBe(101029);
    expect(await ports()).toEqual(['80/http', '443/https']);

    const bad = await call(
      createZonePorts,
      rawInput({ params: { zoneID: zoneId }, body: { ports: [{ port: 70_000, portType: 'quic' }] } }),
    );
    expect(refusedFields(bad)).toEqual(['ports.0.port:invalidPort', 'ports.0.portType:invalidValue']);
  });

  it('refuses to change a port onto another one and to remove the last port', async () => {
    const zone = (await call(createZone, { body: { name: 'Last' } })).json().data.id;
    const [http, https] = (await call(listZonePorts, { params: { zoneID: zone } })).json().data;
    const clash = await call(updateZonePort, {
      params: { zoneID: zone },
      body: { id: http.id, port: 443, portType: 'http' },
    });
    expect(refusedFields(clash)).toEqual(['port:portInUse']);
    expect((await call(deleteZonePorts, { params: { zoneID: zone }, body: { ids: [http.id] } })).statusCode).toBe(200);
    const last = await call(deleteZonePorts, { params: { zoneID: zone }, body: { ids: [https.id] } });
    expect(refusedFields(last)).toEqual(['ids:lastPort']);
    expect(await ports(zone)).toEqual(['443/https']);
  });

  it("keeps another operator away from the zone's ports", async () => {
    const mine = (await call(listZonePorts, { params: { zoneID: zoneId } })).json().data[0].id;
    const theirs = <R extends AnyRoute>(route: R, ...args: CallArgs<R>) => sendAs(t.app, other, route, ...args);
    expect((await theirs(listZonePorts, { params: { zoneID: zoneId } })).json().code).toBe(101018);
    expect(
      (
        await theirs(createZonePorts, { params: { zoneID: zoneId }, body: { ports: [{ port: 81, portType: 'http' }] } })
      ).json().code,
    ).toBe(101018);
    expect((await theirs(deleteZonePorts, { params: { zoneID: zoneId }, body: { ids: [mine] } })).json().code).toBe(
      101018,
    );
    // A port id of one zone cannot be changed through another zone of the same operator either.
    const otherZone = (await call(createZone, { body: { name: 'Elsewhere' } })).json().data.id;
    expect(
      (
        await call(updateZonePort, { params: { zoneID: otherZone }, body: { id: mine, port: 82, portType: 'http' } })
      ).json().code,
    ).toBe(101018);
    expect(await ports()).toEqual(['80/http', '443/https']);
  });
});

describe('zone nginx settings', () => {
  it('stores the sections, applies them to the nodes only while enabled, and resets them', async () => {
    const node = await initializedNode('edge-nginx');
    expect((await call(getZoneNginx, { params: { zoneID: zoneId } })).json().data).toEqual({
      enable: false,
      worker: {},
      http: {},
      stream: {},
      custom: [],
    });

    const http = { keepaliveTimeoutSeconds: 30, clientMaxBodyMegabytes: 8 };
    expect((await call(zoneNginxHttp.put, { params: { zoneID: zoneId }, body: { value: http } })).json().data).toEqual(
      http,
    );
    expect(
      (await call(zoneNginxWorker.put, { params: { zoneID: zoneId }, body: { value: { workerConnections: 2048 } } }))
        .statusCode,
    ).toBe(200);
    const custom = [{ context: 'http', name: 'gzip', args: ['on'] }];
    expect(
      (await call(zoneNginxCustom.put, { params: { zoneID: zoneId }, body: { value: custom } })).json().data,
    ).toEqual(custom);
    expect((await call(zoneNginxHttp.get, { params: { zoneID: zoneId } })).json().data).toEqual(http);
    // Stored but not applied while the zone's nginx settings are off.
    expect((await snapshotOf(node)).nginx).toEqual({ worker: {}, http: {}, stream: {}, custom: [] });

    expect(
      (await call(setZoneNginxEnable, { params: { zoneID: zoneId }, body: { enable: true } })).json().data.enable,
    ).toBe(true);
    expect((await snapshotOf(node)).nginx).toEqual({ worker: { workerConnections: 2048 }, http, stream: {}, custom });

    expect((await call(zoneNginxHttp.delete, { params: { zoneID: zoneId } })).json().data).toEqual({});
    const after = (await call(getZoneNginx, { params: { zoneID: zoneId } })).json().data;
    expect(after).toMatchObject({ enable: true, http: {}, worker: { workerConnections: 2048 }, custom });
    expect((await snapshotOf(node)).nginx.http).toEqual({});
  });

  it('refuses a directive off the allowlist, an unsafe argument and an out-of-range value with their fields', async () => {
    const bad = await call(zoneNginxCustom.put, {
      params: { zoneID: zoneId },
      body: {
        value: [
          { context: 'http', name: 'include', args: ['/etc/passwd'] },
          { context: 'main', name: 'gzip', args: ['on'] },
          { context: 'server', name: 'gzip', args: ['on;', 'x y', '$host'] },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(refusedFields(bad)).toEqual([
      'value.0.name:nginxDirectiveNotAllowed',
      'value.1.name:nginxDirectiveNotAllowed',
      'value.2.args.0:nginxArgNotAllowed',
      'value.2.args.1:nginxArgNotAllowed',
      'value.2.args.2:nginxArgNotAllowed',
    ]);
    expect(bad.json().extra.fields[1].message).toBe('This directive cannot be set in the main context');
    const range = await call(zoneNginxWorker.put, {
      params: { zoneID: zoneId },
      body: { value: { workerConnections: 10, extra: 1 } },
    });
    expect(refusedFields(range)).toEqual(['value.workerConnections:tooSmall', 'value:invalidValue']);
    expect((await call(zoneNginxCustom.get, { params: { zoneID: zoneId } })).json().data).not.toContainEqual(
      expect.objectContaining({ name: 'include' }),
    );
  });

  it("keeps another operator away from the zone's nginx settings", async () => {
    expect((await send(t.app, getZoneNginx, { params: { zoneID: zoneId } }, { token: other })).json().code).toBe(
      101018,
    );
    expect(
      (
        await send(t.app, setZoneNginxEnable, { params: { zoneID: zoneId }, body: { enable: false } }, { token: other })
      ).json().code,
    ).toBe(101018);
    expect(
      (
        await send(t.app, zoneNginxStream.put, { params: { zoneID: zoneId }, body: { value: {} } }, { token: other })
      ).json().code,
    ).toBe(101018);
    expect(
      (await send(t.app, zoneNginxCustom.delete, { params: { zoneID: zoneId } }, { token: other })).json().code,
    ).toBe(101018);
    expect((await call(getZoneNginx, { params: { zoneID: zoneId } })).json().data.enable).toBe(true);
  });
});

describe("the operator's nginx settings", () => {
  it('store each section, reach every node under the zone settings, and reset', async () => {
    const node = await initializedNode('edge-operator-nginx');
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.http.get)).json().data).toEqual({});

    const http = { keepaliveTimeoutSeconds: 40, sendTimeoutSeconds: 30 };
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.http.put, { body: { value: http } })).json().data).toEqual(http);
    const custom = [{ context: 'server' as const, name: 'tcp_nodelay', args: ['on'] }];
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.custom.put, { body: { value: custom } })).json().data).toEqual(
      custom,
    );
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.http.get)).json().data).toEqual(http);

    // The zone (its settings on, from the tests above) overrides value by value and adds its directives.
    await call(setZoneNginxEnable, { params: { zoneID: zoneId }, body: { enable: true } });
    await call(zoneNginxHttp.put, { params: { zoneID: zoneId }, body: { value: { keepaliveTimeoutSeconds: 20 } } });
    const zoneCustom = (await call(zoneNginxCustom.get, { params: { zoneID: zoneId } })).json().data;
    const merged = (await snapshotOf(node)).nginx;
    expect(merged.http).toEqual({ keepaliveTimeoutSeconds: 20, sendTimeoutSeconds: 30 });
    expect(merged.custom).toEqual([...custom, ...(zoneCustom as unknown[])]);

    // With the zone's own off, the operator's alone.
    await call(setZoneNginxEnable, { params: { zoneID: zoneId }, body: { enable: false } });
    expect((await snapshotOf(node)).nginx).toEqual({ worker: {}, http, stream: {}, custom });

    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.http.delete)).json().data).toEqual({});
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.custom.delete)).json().data).toEqual([]);
    expect((await snapshotOf(node)).nginx).toEqual({ worker: {}, http: {}, stream: {}, custom: [] });
  });

  it('refuses a directive off the allowlist with its field, and keeps each operator to its own settings', async () => {
    const bad = await call(OPERATOR_NGINX_SECTION_ROUTES.custom.put, {
      body: {
        value: [{ context: 'http', name: 'lua_code_cache', args: ['off'] }],
      },
    });
    expect(refusedFields(bad)).toEqual(['value.0.name:nginxDirectiveNotAllowed']);

    await call(OPERATOR_NGINX_SECTION_ROUTES.worker.put, { body: { value: { workerConnections: 1024 } } });
    const theirs = await send(t.app, OPERATOR_NGINX_SECTION_ROUTES.worker.get, undefined, { token: other });
    expect(theirs.json().data).toEqual({});
    expect(
      (
        await send(
          t.app,
          OPERATOR_NGINX_SECTION_ROUTES.worker.put,
          { body: { value: { workerConnections: 2048 } } },
          { token: other },
        )
      ).json().data,
    ).toEqual({ workerConnections: 2048 });
    expect((await call(OPERATOR_NGINX_SECTION_ROUTES.worker.get)).json().data).toEqual({ workerConnections: 1024 });
    expect(
      (await send(t.app, OPERATOR_NGINX_SECTION_ROUTES.worker.get, undefined, { token: signInUser })).statusCode,
    ).toBe(403);
  });
});
