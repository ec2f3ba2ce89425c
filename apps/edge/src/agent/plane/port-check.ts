import dgram from 'node:dgram';
import net from 'node:net';
import type { NodeFailedPort } from '@rampart/contract';

/**
 * Which of a config's ports this node can listen on. nginx refuses a whole configuration when one
 * `listen` cannot bind (a port another process on the host holds), and with it every other change;
 * so before a start or reload the agent tries each port it would add, leaves out those that do not
 * bind, and reports them. Ports the running nginx already holds are not tried (they are ours).
 */

export type PortProtocol = 'tcp' | 'udp';
/** A port as nginx.conf listens on it (after the port map), with what it stands for in the snapshot. */
export interface PlannedPort {
  kind: NodeFailedPort['kind'];
  /** The snapshot's stream port id (stream ports only). */
  id?: number;
  /** The port number in the snapshot (what the control plane knows). */
  port: number;
  /** The port nginx listens on (the port map applied). */
  localPort: number;
  protocol: PortProtocol;
}

export const portKey = (protocol: PortProtocol, localPort: number) => `${protocol}/${localPort}`;

/** Tries to bind `port` as nginx would; resolves the error code, or null when it binds. */
export function bindError(protocol: PortProtocol, port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    if (protocol === 'tcp') {
      const server = net.createServer();
      server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
      return;
    }
    const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
    socket.once('error', (err: NodeJS.ErrnoException) => {
      socket.close();
      resolve(err.code ?? err.message);
    });
    socket.bind({ port, address: host, exclusive: true }, () => socket.close(() => resolve(null)));
  });
}

/**
 * The ports of `planned` that do not bind, skipping those in `held` (keys of ports the running
 * nginx listens on). Tried one after another: a config holds at most about a thousand ports.
 */
export async function unbindablePorts(
  planned: readonly PlannedPort[],
  held: ReadonlySet<string>,
  host: string,
): Promise<NodeFailedPort[]> {
  const failed: NodeFailedPort[] = [];
  for (const p of planned) {
    if (held.has(portKey(p.protocol, p.localPort))) continue;
    const error = await bindError(p.protocol, p.localPort, host);
    if (error !== null) failed.push(failure(p, error));
  }
  return failed;
}

export function failure(p: PlannedPort, error: string): NodeFailedPort {
  return {
    kind: p.kind,
    ...(p.id !== undefined ? { id: p.id } : {}),
    port: p.port,
    protocol: p.protocol,
    error: error.slice(0, 200),
  };
}

/**
 * The ports an nginx.conf listens on, as keys: `listen 80`, `listen 10.0.0.1:80`, `listen [::]:80`,
 * with `udp` for datagram ports. The running config says what nginx holds even after the agent
 * restarted and adopted it.
 */
export function listenedPorts(conf: string): Set<string> {
  const out = new Set<string>();
  for (const m of conf.matchAll(/^\s*listen\s+(\S+?)(?:\s+([^;]*))?;/gm)) {
    const address = m[1] ?? '';
    const port = /(?:^|:)(\d+)$/.exec(address)?.[1];
    if (port === undefined) continue;
    const udp = (m[2] ?? '').split(/\s+/).includes('udp');
    out.add(portKey(udp ? 'udp' : 'tcp', Number(port)));
  }
  return out;
}

/**
 * Local ports nginx says it could not bind, from its [emerg] lines:
 * `bind() to 0.0.0.0:5000 failed (98: Address already in use)`.
 */
export function bindFailures(emerg: readonly string[]): { localPort: number; error: string }[] {
  const out: { localPort: number; error: string }[] = [];
  for (const line of emerg) {
    const m = /bind\(\) to (?:\[[^\]]*\]|[^\s\]]+):(\d+) failed \(([^)]*)\)/.exec(line);
    if (m?.[1] !== undefined) out.push({ localPort: Number(m[1]), error: m[2] ?? 'bind failed' });
  }
  return out;
}
