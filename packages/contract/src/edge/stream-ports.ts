import { z } from 'zod';
import { isIP } from '../validators/ip.js';

/**
 * A site's layer-4 ports as a node serves them (see routes/site-ports.ts). Unlike the data plane,
 * these are rendered into nginx.conf (one `stream` server per port), so every value is an integer,
 * a keyword from a fixed list or an IP literal: nothing a customer types reaches the file as text.
 * A change needs an nginx reload, which the agent does with `nginx -t` first and rolls back when
 * nginx refuses.
 */

export const STREAM_PROTOCOLS = ['tcp', 'udp', 'both'] as const;
export type StreamProtocol = (typeof STREAM_PROTOCOLS)[number];
export const STREAM_BALANCES = ['round_robin', 'ip_hash'] as const;
/** Most layer-4 ports one node serves (what one nginx.conf renders and reloads in reasonable time). */
export const STREAM_PORTS_PER_NODE = 1024;
export const STREAM_UPSTREAMS_PER_PORT = 64;

const listenPort = z.number().int().min(1).max(65_535);

export const edgeStreamUpstreamSchema = z.strictObject({
  ip: z.string().refine((ip) => isIP(ip), 'not an IPv4 or IPv6 literal'),
  port: listenPort,
  weight: z.number().int().min(1).max(100),
  backup: z.boolean(),
});

export const edgeStreamPortSchema = z.strictObject({
  /** The port's id (names its upstream block). */
  id: z.number().int().min(1).max(2_147_483_647),
  port: listenPort,
  protocol: z.enum(STREAM_PROTOCOLS),
  balance: z.enum(STREAM_BALANCES),
  upstreams: z
    .array(edgeStreamUpstreamSchema)
    .min(1)
    .max(STREAM_UPSTREAMS_PER_PORT)
    .refine((list) => list.some((u) => !u.backup), 'at least one upstream must not be a backup'),
});

/** The node's layer-4 ports: each port number and id at most once. */
export const edgeStreamPortsSchema = z
  .array(edgeStreamPortSchema)
  .max(STREAM_PORTS_PER_NODE)
  .superRefine((ports, ctx) => {
    const numbers = new Set<number>();
    const ids = new Set<number>();
    ports.forEach((p, i) => {
      if (numbers.has(p.port)) ctx.addIssue({ code: 'custom', path: [i, 'port'], message: `port ${p.port} twice` });
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `id ${p.id} twice` });
      numbers.add(p.port);
      ids.add(p.id);
    });
  });

export type EdgeStreamPort = z.infer<typeof edgeStreamPortSchema>;
export type EdgeStreamUpstream = z.infer<typeof edgeStreamUpstreamSchema>;

/**
 * A port a node could not listen on (another process holds it, or the address is not there). The
 * node leaves it out, keeps serving everything else, and reports it with each status report until
 * it binds again. `stream` ports are a site's layer-4 ports (`id` is the site port's id), `listen`
 * ports are the zone's HTTP/HTTPS listen ports.
 */
export const nodeFailedPortSchema = z.strictObject({
  kind: z.enum(['stream', 'listen']),
  id: z.number().int().min(1).max(2_147_483_647).optional(),
  port: listenPort,
  protocol: z.enum(['tcp', 'udp']),
  /** What the bind answered (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, or nginx's message). */
  error: z.string().max(200),
});
export type NodeFailedPort = z.infer<typeof nodeFailedPortSchema>;
/** Most failed ports one report carries (every stream port and every listen port). */
export const NODE_FAILED_PORTS_MAX = STREAM_PORTS_PER_NODE + 32;
