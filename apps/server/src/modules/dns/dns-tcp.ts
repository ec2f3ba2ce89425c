import net from 'node:net';
import {
  type CheckedAddress,
  pinnedLookup,
  type TargetGuard,
  TargetRefusedError,
} from '../../platform/http/target-guard.js';
import { DnsProviderError } from './dns-provider.js';
import { u16 } from './dns-wire.js';

/** DNS over TCP to an RFC 2136 server (RFC 1035 §4.2.2 framing), through the target guard. */

/** `host:port` (IPv6 as `[addr]:port`) split for a socket. */
export function splitServer(server: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(server);
  if (!m) return { host: server, port: 53 };
  return { host: m[1] ?? server, port: Number(m[2]) };
}

/**
 * Sends one message over TCP and reads one answer, all within `timeoutMs`. The server's host goes
 * through the target guard: its addresses checked, the socket pinned to them.
 */
export async function exchangeTcp(
  targets: TargetGuard,
  server: string,
  message: Buffer,
  timeoutMs: number,
): Promise<Buffer> {
  const { host, port } = splitServer(server);
  let addresses: CheckedAddress[];
  try {
    addresses = await targets.addresses(host);
  } catch (error) {
    throw error instanceof TargetRefusedError ? new DnsProviderError(`${server}: ${error.message}`) : error;
  }
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, lookup: pinnedLookup(addresses) });
    let received = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error instanceof DnsProviderError ? error : new DnsProviderError(`${server}: ${error.message}`));
    };
    socket.setTimeout(timeoutMs, () => fail(new DnsProviderError(`${server}: no answer within ${timeoutMs} ms`)));
    const deadline = setTimeout(
      () => fail(new DnsProviderError(`${server}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once('error', (error) => {
      clearTimeout(deadline);
      fail(error);
    });
    socket.once('connect', () => socket.write(Buffer.concat([u16(message.length), message])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        clearTimeout(deadline);
        socket.end();
        resolve(received.subarray(2, 2 + received.readUInt16BE(0)));
      }
    });
    socket.once('close', () => {
      clearTimeout(deadline);
      reject(new DnsProviderError(`${server}: connection closed without an answer`));
    });
  });
}
