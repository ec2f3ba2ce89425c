import { nodeInfo, registerNode as registerNodeRoute } from '@rampart/contract';
import { apiText, callApi } from './api.js';

/** Registers a node with the operator's join token, as `rampart-edge` does on a new machine. */
export async function registerNode(hostname: string): Promise<number> {
  const info = await apiText('client', nodeInfo);
  const joinToken = /^join_token=(.*)$/m.exec(info)?.[1];
  if (!joinToken) throw new Error(`no join token in ${info}`);
  const res = await callApi(registerNodeRoute, {
    body: { joinToken, hostname, ips: ['192.0.2.44'], version: '0.1.0' },
  });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.nodeId;
}
