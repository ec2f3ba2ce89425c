import { isIPv4, isIPv6 } from 'node:net';

/**
 * The node's own listening sockets, which no customer origin may be (the same rule as
 * lua/rampart/node_self.lua, which the balancer applies to HTTP origins; this one serves the
 * layer-4 upstreams nginx.conf names directly): a listen port on the address nginx listens on, or,
 * when it listens on every address, on loopback or one of the machine's addresses; an unspecified
 * address always counts. IPv4 addresses embedded in IPv6 forms (mapped, compatible, SIIT, 6to4,
 * NAT64) count as the IPv4 address.
 */
export interface OwnSockets {
  ports: ReadonlySet<number>;
  /** The addresses nginx listens on (the machine's when `everyAddress`). */
  addresses: readonly string[];
  everyAddress: boolean;
}

function v4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** 16 bytes for an IP literal (IPv4 as IPv4-mapped IPv6); null when it is none. */
export function ipBytes(ip: string): number[] | null {
  if (isIPv4(ip)) return [...Array(10).fill(0), 0xff, 0xff, ...v4Bytes(ip)];
  if (!isIPv6(ip) || ip.includes('%')) return null;
  let text = ip;
  let tail: number[] = [];
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    tail = v4Bytes(v4[1]);
    text = text.slice(0, text.length - v4[1].length);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const want = v4 ? 6 : 8;
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const [head = '', rest] = text.split('::');
  const h = groups(head);
  const t = rest === undefined ? [] : groups(rest);
  const all = [...h, ...Array(want - h.length - t.length).fill(0), ...t];
  return [...all.flatMap((g) => [g >> 8, g & 0xff]), ...tail];
}

/** The IPv4 address (4 bytes) a 16-byte address stands for, or null. */
function embeddedV4(b: number[]): number[] | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  if (zero(0, 12)) return b.slice(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return b.slice(12);
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return b.slice(12);
  return null;
}

/** Whether nginx's listeners are reachable at `ip` (an address that does not parse counts). */
export function isOwnAddress(own: OwnSockets, ip: string): boolean {
  const b = ipBytes(ip);
  if (b === null) return true;
  const key = (bytes: number[]) => bytes.join('.');
  const mine = new Set(
    own.addresses
      .map(ipBytes)
      .filter((x): x is number[] => x !== null)
      .map(key),
  );
  if (mine.has(key(b)) || b.every((x) => x === 0)) return true;
  if (own.everyAddress && key(b) === key([...Array(15).fill(0), 1])) return true;
  const v4 = embeddedV4(b);
  if (v4) {
    if (v4[0] === 0 || (own.everyAddress && v4[0] === 127)) return true;
    if (mine.has(key([...Array(10).fill(0), 0xff, 0xff, ...v4]))) return true;
  }
  return false;
}

/** Whether `ip`:`port` is one of the node's own listening sockets. */
export function isOwnSocket(own: OwnSockets, ip: string, port: number): boolean {
  return own.ports.has(port) && isOwnAddress(own, ip);
}
