import { EDGE_API_BASE, NODE_INSTALL_SCRIPT_PATH } from '@rampart/contract';

/**
 * Where a node-on-the-same-machine keeps its state (relative to the repository checkout, where
 * `npm run edge` runs) and the unprivileged ports it maps the zone's 80 and 443 to.
 */
export const LOCAL_NODE = {
  stateDir: '.edge-node',
  portMap: '80=18080,443=18443',
  address: '127.0.0.1',
} as const;

/**
 * The `key=value` lines of `GET client/node-info`. The first three keys are the spec's and stay
 * (consumers read them); `install_command` is the line that installs and joins a fresh Debian
 * machine through the control plane's install script, `local_command` runs a node from the
 * repository checkout beside the control plane, without root. The join token is passed in the
 * environment, never as an argument of the agent nor in a file others can read.
 */
export function nodeInfoLines(controlPlane: string, token: string): string[] {
  const url = controlPlane.replace(/\/+$/, '');
  const script = `${url}${EDGE_API_BASE}${NODE_INSTALL_SCRIPT_PATH}`;
  return [
    `control_plane_url=${url}`,
    `join_token=${token}`,
    `install_command=curl -fsSL ${script} | sudo RAMPART_JOIN_TOKEN=${token} sh -s -- --control-plane ${url}`,
    `install_script_url=${script}`,
    `local_command=RAMPART_JOIN_TOKEN=${token} npm run edge -- --control-plane ${url} --state-dir ${LOCAL_NODE.stateDir}` +
      ` --port-map ${LOCAL_NODE.portMap} --listen-address ${LOCAL_NODE.address} --ips ${LOCAL_NODE.address}`,
  ];
}
