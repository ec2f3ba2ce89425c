import { callApi, type Method } from './auth.js';
import type { TestApp } from './test-app.js';

/** Registers a node with the operator's join token and initialises it in the zone; answers its id. */
export async function initializedNode(
  t: TestApp,
  operator: { accessToken: string },
  zoneId: number,
  hostname: string,
  ips = ['192.0.2.30'],
): Promise<number> {
  const call = (method: Method, url: string, payload?: Record<string, unknown>) =>
    callApi(t.app, operator, method, url, payload);
  const token = /join_token=(\S+)/.exec((await call('GET', 'client/node-info')).body)?.[1];
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/edge/v1/register',
    payload: { joinToken: token, hostname, ips, version: '0.1.0' },
  });
  const id = reg.json().data.nodeId as number;
  const init = await call('POST', 'client/nodes/initialize', { ids: [id], zoneID: zoneId });
  if (init.statusCode !== 200) throw new Error(`initialize failed: ${init.body}`);
  return id;
}
