import { createSocket } from 'node:dgram';
import { connect, createServer, type Server } from 'node:net';
import type { EdgeStreamPort } from '@rampart/contract';
import { freePort } from './net.js';

// Layer-4 origins and clients on loopback, for the stream (TCP/UDP proxy) tests.

/** A TCP origin that answers every chunk with `<name>:<chunk>`. */
export async function tcpEcho(name: string): Promise<{ server: Server; port: number }> {
  const port = await freePort();
  const server = createServer((socket) => socket.on('data', (d) => socket.write(`${name}:${d.toString()}`)));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port };
}

/** Stops listening (the port is free at once; connections still open do not hold it). */
export const letGo = (server: Server) => {
  server.close();
  server.unref();
};

/** Sends `text` on a new TCP connection and answers the first chunk that comes back. */
export function tcpAsk(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.setTimeout(5000, () => socket.destroy(new Error('tcp answer timed out')));
    socket.once('data', (d) => {
      resolve(d.toString());
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** A UDP origin that answers each datagram with `<name>:<datagram>`. */
export async function udpEcho(name: string) {
  const port = await freePort();
  const socket = createSocket('udp4');
  socket.on('message', (msg, from) => socket.send(`${name}:${msg.toString()}`, from.port, from.address));
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  return { socket, port };
}

/** One datagram to `port`, the first answer back (bounded: 3 tries of 1 s). */
export async function udpAsk(port: number, text: string): Promise<string> {
  const socket = createSocket('udp4');
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), 1000);
        socket.once('message', (msg) => {
          clearTimeout(timer);
          resolve(msg.toString());
        });
      });
      socket.send(text, port, '127.0.0.1');
      const got = await answer;
      if (got !== null) return got;
    }
    throw new Error('no udp answer');
  } finally {
    socket.close();
  }
}

/** A layer-4 port of a snapshot: TCP, round robin, one upstream on 127.0.0.1:`to`; override any field. */
export const streamPort = (
  id: number,
  port: number,
  to: number,
  more: Partial<EdgeStreamPort> = {},
): EdgeStreamPort => ({
  id,
  port,
  protocol: 'tcp',
  balance: 'round_robin',
  upstreams: [{ ip: '127.0.0.1', port: to, weight: 1, backup: false }],
  ...more,
});
