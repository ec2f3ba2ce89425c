import type { AnyRoute } from '@rampart/contract';
import { initializeNodes, nodeInfo, registerNode } from '@rampart/contract';
import type { TestCallArgs } from '@rampart/contract/testing';
import { send, sendAs, type Token } from './call.js';
import type { TestApp } from './test-app.js';

/** Registers a node with the operator's join token and initialises it in the zone; answers its id. */
export async function initializedNode(
  t: TestApp,
  operator: { accessToken: string },
  zoneId: number,
  hostname: string,
  ips = ['192.0.2.30'],
): Promise<number> {
  const call = <R extends AnyRoute>(route: R, ...args: TestCallArgs<R, Token>) =>
    sendAs(t.app, operator, route, ...args);
  const token = /join_token=(\S+)/.exec((await call(nodeInfo)).body)?.[1];
  const reg = await send(t.app, registerNode, { body: { joinToken: token, hostname, ips, version: '0.1.0' } });
  const id = reg.json().data.nodeId as number;
  const init = await call(initializeNodes, { body: { ids: [id], zoneID: zoneId } });
  if (init.statusCode !== 200) throw new Error(`initialize failed: ${init.body}`);
  return id;
}
