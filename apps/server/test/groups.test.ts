import type { AnyRoute, RouteInput } from '@rampart/contract';
import {
  addLineNodes,
  createGroup,
  createZone,
  deleteGroup,
  deleteZone,
  listGroups,
  listLineNodes,
  metaGroups,
  removeLineNodes,
  updateGroup,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { initializedNode } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  zoneId = (await call(createZone, { body: { name: 'Asia' } })).json().data.id;
  otherZoneId = (await call(createZone, { body: { name: 'Europe' } })).json().data.id;
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}

const nodeIn = (zone: number, hostname: string) => initializedNode(t, client, zone, hostname);

describe('groups', () => {
  it('creates groups per port type, filters them, and updates one', async () => {
    const web = (await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'web', portType: 7 } })).json()
      .data;
    expect(web).toMatchObject({ zoneId, name: 'web', portType: 7, isBackup: false, nodeCount: 0 });
    await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'web-backup', portType: 7, isBackup: true } });
    await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'tcp', portType: 4 } });
    expect((await call(listGroups, { params: { zoneID: zoneId } })).json().total).toBe(3);
    const meta = await call(metaGroups, { params: { zoneID: zoneId }, query: { portType: 7, isBackup: 'false' } });
    expect(meta.json().data).toEqual([{ id: web.id, name: 'web' }]);
    const patched = await call(updateGroup, {
      params: { zoneID: zoneId },
      body: {
        id: web.id,
        name: 'web-main',
        isBackup: false,
        memo: 'main',
      },
    });
    expect(patched.json().data).toMatchObject({ name: 'web-main', memo: 'main', portType: 7 });
    expect(
      (await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'tcp', portType: 4 } })).json().code,
    ).toBe(101025);
    expect(
      (await call(createGroup, rawInput({ params: { zoneID: zoneId }, body: { name: 'x', portType: 5 } }))).json().extra
        .fields[0].field,
    ).toBe('portType');
  });

  it('puts nodes of the zone in a group on a line, and refuses nodes of another zone', async () => {
    const group = (await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'edge', portType: 7 } })).json()
      .data;
    const a = await nodeIn(zoneId, 'edge-a');
    const b = await nodeIn(zoneId, 'edge-b');
    const elsewhere = await nodeIn(otherZoneId, 'edge-eu');
    expect(
      (
        await call(addLineNodes, {
          params: { zoneID: zoneId, groupID: group.id, lineID: 'default' },
          body: { nodeIDs: [a, b] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(addLineNodes, {
          params: { zoneID: zoneId, groupID: group.id, lineID: 'default' },
          body: { nodeIDs: [a] },
        })
      ).statusCode,
    ).toBe(200); // idempotent
    expect(
      (await call(listLineNodes, { params: { zoneID: zoneId, groupID: group.id, lineID: 'default' } })).json(),
    ).toMatchObject({
      total: 2,
      data: [
        { id: a, name: 'edge-a' },
        { id: b, name: 'edge-b' },
      ],
    });
    expect(
      (
        await call(addLineNodes, {
          params: { zoneID: zoneId, groupID: group.id, lineID: 'default' },
          body: { nodeIDs: [elsewhere] },
        })
      ).json().code,
    ).toBe(101018);
    expect(
      (
        await call(removeLineNodes, {
          params: { zoneID: zoneId, groupID: group.id, lineID: 'default' },
          body: { nodeIDs: [a] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(listLineNodes, { params: { zoneID: zoneId, groupID: group.id, lineID: 'default' } })).json().total,
    ).toBe(1);
    const listed = (await call(listGroups, { params: { zoneID: zoneId } }))
      .json()
      .data.find((g: { id: number }) => g.id === group.id);
    expect(listed!.nodeCount).toBe(1);
    expect(
      (
        await call(
          addLineNodes,
          rawInput({ params: { zoneID: zoneId, groupID: group.id, lineID: 'bad line' }, body: { nodeIDs: [a] } }),
        )
      ).statusCode,
    ).toBe(400);
  });

  it("does not reach a group through another zone's path", async () => {
    const group = (
      await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'scoped', portType: 7 } })
    ).json().data;
    expect(
      (
        await call(updateGroup, {
          params: { zoneID: otherZoneId },
          body: { id: group.id, name: 'stolen', isBackup: false },
        })
      ).json().code,
    ).toBe(101018);
    expect((await call(deleteGroup, { params: { zoneID: otherZoneId }, body: { id: group.id } })).json().code).toBe(
      101018,
    );
    expect(
      (await call(listLineNodes, { params: { zoneID: otherZoneId, groupID: group.id, lineID: 'default' } })).json()
        .code,
    ).toBe(101018);
    expect((await call(deleteGroup, { params: { zoneID: zoneId }, body: { id: group.id } })).statusCode).toBe(200);
  });

  it('filters metaGroups by port type and backup flag, and refuses a bad filter with 101003', async () => {
    const zone = (await call(createZone, { body: { name: 'Meta' } })).json().data.id;
    const make = async (name: string, portType: 4 | 7, isBackup: boolean) =>
      (await call(createGroup, { params: { zoneID: zone }, body: { name, portType, isBackup } })).json().data.id;
    const main7 = await make('a-main', 7, false);
    const backup7 = await make('b-backup', 7, true);
    const backup4 = await make('c-backup-l4', 4, true);
    const meta = async (query: RouteInput<typeof metaGroups>['query']) =>
      (await call(metaGroups, { params: { zoneID: zone }, query })).json().data.map((g: { id: number }) => g.id);
    expect(await meta({})).toEqual([main7, backup7, backup4]);
    expect(await meta({ isBackup: 'true' })).toEqual([backup7, backup4]);
    expect(await meta({ portType: 4 })).toEqual([backup4]);
    expect(await meta({ portType: 7, isBackup: 'true' })).toEqual([backup7]);
    const bad = await call(
      metaGroups,
      rawInput({ params: { zoneID: zone }, query: { portType: 5, isBackup: 'maybe' } }),
    );
    expect(fieldNames(bad).sort()).toEqual(['isBackup', 'portType']);
  });

  it("answers another operator 101018 for the zone's groups, metaGroups and a new group in it", async () => {
    const rival = await signInOtherOperator(t.app);
    const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, rival, route, ...args);
    expect((await as(listGroups, { params: { zoneID: zoneId } })).json().code).toBe(101018);
    expect((await as(metaGroups, { params: { zoneID: zoneId } })).json().code).toBe(101018);
    expect(
      (await as(createGroup, { params: { zoneID: zoneId }, body: { name: 'intruder', portType: 7 } })).json().code,
    ).toBe(101018);
  });

  it('deletes an empty zone together with its groups', async () => {
    const zone = (await call(createZone, { body: { name: 'Empty' } })).json().data;
    await call(createGroup, { params: { zoneID: zone.id }, body: { name: 'g', portType: 7 } });
    expect((await call(deleteZone, { body: { id: zone.id } })).statusCode).toBe(200);
  });
});
