import { z } from 'zod';
import { dataPlaneSchema } from '../edge/data-plane.js';
import { l4RulesSchema } from '../edge/l4-rules.js';
import { nginxTuningSchema } from '../edge/nginx-tuning.js';
import { NODE_EXPORTER_DEFAULT, nodeExporterSchema } from '../edge/node-exporter.js';
import { planeAnswerSchema } from '../edge/plane.js';
import { edgeRealIpSchema, NO_REAL_IP } from '../edge/real-ip.js';
import { edgeStreamPortsSchema } from '../edge/stream-ports.js';
import { dataOf, nodeAccess } from '../route.js';
import { routeFamily } from '../route-family.js';

// What a node fetches of its configuration: the snapshot, the data plane and its stream (nodes.ts lists every node route).
/** A daily time of day, `HH:MM` in UTC (the nodes' clocks may sit in any time zone). */
export const dailyTimeSchema = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);

/** Longest a snapshot poll is held open when nothing changes. */
export const EDGE_SNAPSHOT_MAX_WAIT_SECONDS = 30;
const listenPort = z.number().int().min(1).max(65_535);

/**
 * Everything a node serves, built by the control plane for one node: the zone-level listen
 * settings (rendered into nginx.conf) and the data plane (pushed into Lua shared memory). The
 * version is a hash of the content, so equal content has an equal version on every build.
 */
export const edgeSnapshotSchema = z.object({
  version: z.string().regex(/^[0-9a-f]{32}$/),
  generatedAt: z.string(),
  /** False while the node waits to be placed in a zone and group: it serves nothing yet. */
  initialized: z.boolean(),
  listen: z.object({
    httpPorts: z.array(listenPort).max(16),
    httpsPorts: z.array(listenPort).max(16),
    http2: z.boolean(),
  }),
  /** Who may tell the edge the visitor's address (the zone's trust setting): rendered into nginx.conf. */
  realIp: edgeRealIpSchema.default(NO_REAL_IP),
  /** The zone's nginx settings (empty sections when the zone has them off): rendered into nginx.conf. */
  nginx: nginxTuningSchema.default({ worker: {}, http: {}, stream: {}, custom: [] }),
  dataPlane: dataPlaneSchema,
  /** The layer-4 ports the node serves (rendered into nginx.conf's stream block; see edge/stream-ports.ts). */
  streamPorts: edgeStreamPortsSchema.default([]),
  /**
   * The node's layer-4 protection, enforced by its kernel (edge/l4-rules.ts; the agent's nftables
   * table): per served stream port its lists, regions and connection limit, and the zone's rates.
   * Null: no stream port and no zone rate (the agent keeps an empty table).
   */
  l4: l4RulesSchema.nullable().default(null),
  /** Whether the layer-7 DROP + Blacklist blocks are pushed down to the kernel (the zone's layer-4 protection). */
  l4KernelBlocks: z.boolean().default(false),
  /** Daily time (`HH:MM` UTC) at which the agent rotates nginx's logs; null or absent: never. */
  logRotateTime: dailyTimeSchema.nullable().optional(),
  /** Who may scrape the agent's metrics and how often (the operator's node exporter setting). */
  nodeExporter: nodeExporterSchema.default(NODE_EXPORTER_DEFAULT),
});
export type EdgeSnapshot = z.infer<typeof edgeSnapshotSchema>;

const route = routeFamily({ tags: ['edge'], read: nodeAccess });

export const getNodeSnapshot = route.get('edge.snapshot', '/snapshot', {
  api: 'edge',
  summary:
    "Long poll for the node's snapshot: answers at once when the current version differs from `version`, " +
    'else holds the request up to `wait` seconds and answers null when nothing changed',
  query: z.object({
    version: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .optional(),
    wait: z.coerce.number().int().min(0).max(EDGE_SNAPSHOT_MAX_WAIT_SECONDS).default(0),
    /**
     * `none`: the node takes its data plane as entries (`/plane`), so the snapshot carries an empty
     * one and its version moves only with the node's zone-level settings; `whole` (the default) as before.
     */
    dataPlane: z.enum(['whole', 'none']).default('whole'),
  }),
  // Written by the server as text (its parts were checked when built: snapshots.service.ts).
  reply: 'jsonText',
  response: dataOf(edgeSnapshotSchema.nullable()),
});

export const getNodePlane = route.get('edge.plane', '/plane', {
  api: 'edge',
  summary:
    "Long poll for the node's data plane as entries (docs/data-plane-deltas.md): the changes since `since` " +
    '(a delta), or every entry (full) when `since` is absent, older than the kept log, or `plane` (the plane ' +
    'hash the node holds at `since`) differs from the one answered for it; null when nothing changed within `wait`',
  query: z.object({
    since: z
      .string()
      .regex(/^[0-9]{1,19}$/)
      .optional(),
    plane: z
      .string()
      .regex(/^[0-9a-f]{12}$/)
      .optional(),
    /** The hash of the meta the node holds: a different meta is answered even when no entry changed. */
    meta: z
      .string()
      .regex(/^[0-9a-f]{12}$/)
      .optional(),
    wait: z.coerce.number().int().min(0).max(EDGE_SNAPSHOT_MAX_WAIT_SECONDS).default(0),
  }),
  // Written by the server as text: the nodes of a plane share one answer, checked once (plane.service.ts).
  reply: 'jsonText',
  response: dataOf(planeAnswerSchema.nullable()),
});

/** Longest a plane stream stays open before the control plane ends it (the node opens another). */
export const EDGE_PLANE_STREAM_SECONDS = 600;
/** A plane stream carries an empty line at least this often while nothing changes (the node's liveness check). */
export const EDGE_PLANE_STREAM_KEEPALIVE_SECONDS = 20;

export const getNodePlaneStream = route.get('edge.planeStream', '/plane/stream', {
  api: 'edge',
  summary:
    'The node\'s data plane as a stream (docs/data-plane-deltas.md "Streams"): newline-delimited JSON, one ' +
    'line per answer `/plane` would give, each from what the line before brought (the first from `since`, ' +
    '`plane` and `meta` as `/plane` takes them); an empty line first and every ' +
    `${EDGE_PLANE_STREAM_KEEPALIVE_SECONDS} s while nothing changes; ended by the control plane after ` +
    `${EDGE_PLANE_STREAM_SECONDS} s (the node opens another from what it holds). One request per node, not one per change.`,
  query: getNodePlane.request.query.omit({ wait: true }),
  // Each line is an answer of `/plane` (its `data`, never null), written by the server as text.
  reply: 'raw',
  response: planeAnswerSchema,
});
