import { z } from 'zod';
import { NODE_FAILED_PORTS_MAX, nodeFailedPortSchema } from '../edge/stream-ports.js';
import { pageQuery } from '../http.js';
import { dataOf, nodeAccess, okReply, pageOf, publicAccess, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam } from '../validators/ids.js';
import { portTypeSchema } from './groups.js';
import { nodeMonitorStatusSchema } from './monitoring.js';
import { dailyTimeSchema, getNodePlane, getNodePlaneStream, getNodeSnapshot } from './node-edge-routes.js';

export type { EdgeSnapshot } from './node-edge-routes.js';
export {
  dailyTimeSchema,
  EDGE_PLANE_STREAM_KEEPALIVE_SECONDS,
  EDGE_PLANE_STREAM_SECONDS,
  EDGE_SNAPSHOT_MAX_WAIT_SECONDS,
  edgeSnapshotSchema,
  getNodePlane,
  getNodePlaneStream,
  getNodeSnapshot,
} from './node-edge-routes.js';

/**
 * Edge nodes joining the operator's fleet. A node's agent registers with the operator's join token
 * (shown by `GET client/node-info`), receives a node id and secret, and from then on signs every
 * node-API request (see {@link nodeSignaturePayload}). A registered node is uninitialised until the
 * operator places it in a zone and group.
 */

/** Headers of a signed node-API request. */
export const NODE_SIGNATURE_HEADERS = {
  node: 'x-rampart-node',
  timestamp: 'x-rampart-timestamp',
  nonce: 'x-rampart-nonce',
  signature: 'x-rampart-signature',
  /**
   * The body's SHA-256 hex, the same the signature covers: with it the control plane checks the
   * signature from the headers alone, before it reads (or makes room for) the body, and the body
   * against it once read. Agents before it did not send it (docs/decisions "Node ingest admission").
   */
  bodySha256: 'x-rampart-body-sha256',
} as const;
/** How far a request's timestamp may be from the control plane's clock. */
export const NODE_SIGNATURE_MAX_SKEW_SECONDS = 300;

/**
 * The text a node signs with HMAC-SHA256 under its secret (hex digest in `x-rampart-signature`):
 * method, path with query, timestamp, nonce and the SHA-256 hex of the body, one per line.
 */
export function nodeSignaturePayload(parts: {
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  bodySha256: string;
}): string {
  return [parts.method.toUpperCase(), parts.path, parts.timestamp, parts.nonce, parts.bodySha256].join('\n');
}

const hostLabel = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/);
const ipLiteral = z.union([z.ipv4(), z.ipv6()]);
const agentVersion = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9A-Za-z.+-]+$/);

const count = (max: number) => z.number().int().min(0).max(max);
/**
 * What an agent reports about its machine with each status report (spec part 2 §7 "GET
 * .../node/{id}/system"). Bounded so that a node cannot store anything large or odd.
 */
export const nodeSystemSchema = z.strictObject({
  cpuCount: count(4096),
  /** Busy share of all CPUs since the previous report, 0–100. */
  cpuUsage: z.number().min(0).max(100),
  memoryTotalBytes: count(2 ** 52),
  memoryUsedBytes: count(2 ** 52),
  /** The file system of the agent's state directory (nginx prefix, logs, snapshots). */
  diskTotalBytes: count(2 ** 60),
  diskUsedBytes: count(2 ** 60),
  loadAverage: z.tuple([z.number().min(0).max(1e6), z.number().min(0).max(1e6), z.number().min(0).max(1e6)]),
  uptimeSeconds: count(2 ** 40),
  /** `nginx -v` as nginx prints it after `nginx/` ('' when it could not be read). */
  nginxVersion: z
    .string()
    .max(64)
    .regex(/^[0-9A-Za-z.+ ()-]*$/),
  agentVersion,
});
export type NodeSystem = z.infer<typeof nodeSystemSchema>;

const registerNodeBody = z.object({
  joinToken: z.string().min(1).max(256),
  hostname: hostLabel,
  ips: z.array(ipLiteral).min(1).max(32),
  version: agentVersion,
});
export type RegisterNodeIn = z.output<typeof registerNodeBody>;

const route = routeFamily({ tags: ['nodes'], read: tiers(['client'], 'client.nodes.read'), write: publicAccess });

export const registerNode = route.post('edge.register', '/register', {
  api: 'edge',
  codes: [101013, 101019, 202002],
  summary: "Registers a node with the operator's join token; answers its id and secret (shown once)",
  tags: ['edge'],
  body: registerNodeBody,
  response: dataOf(z.object({ nodeId: z.number().int(), nodeSecret: z.string() })),
});

const nodeStatusBody = z.object({
  version: agentVersion,
  appliedVersion: z.string().max(128),
  lastError: z.string().max(2000),
  ips: z.array(ipLiteral).min(1).max(32).optional(),
  system: nodeSystemSchema.optional(),
  /** Ports the node could not listen on with the applied snapshot; absent (older agents) = none. */
  failedPorts: z.array(nodeFailedPortSchema).max(NODE_FAILED_PORTS_MAX).optional(),
  /**
   * The plane sequence nginx's store holds (the `to` of the last answer it took, `/plane`); absent
   * for an agent that takes the snapshot's data plane, or before its store holds a plane.
   */
  planeVersion: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});
export type NodeStatusIn = z.output<typeof nodeStatusBody>;

export const reportNodeStatus = route.post('edge.status', '/status', {
  api: 'edge',
  access: nodeAccess,
  summary:
    'A node reports its agent version, the snapshot version it applied, its last error and the ports it could not listen on',
  tags: ['edge'],
  body: nodeStatusBody,
  response: okReply,
});

export const uninitializedNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  version: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
});

export const listUninitializedNodes = route.get('client.nodes.uninitialized', '/client/nodes', {
  summary: 'Nodes that registered and wait to be placed in a zone and group',
  query: pageQuery,
  response: pageOf(uninitializedNodeSchema),
});

/**
 * Where a node's latest upgrade stands: none asked for, running (queued until the node reports the
 * new version), succeeded, failed (the agent's reason is in the node's upgrade logs).
 */
export const NODE_UPGRADE_STATUSES = ['none', 'upgrading', 'succeeded', 'failed'] as const;
export const nodeUpgradeStatusSchema = z.enum(NODE_UPGRADE_STATUSES);
export type NodeUpgradeStatus = z.infer<typeof nodeUpgradeStatusSchema>;

export const NODE_SWITCHES = ['on', 'off'] as const;
export const nodeSwitchSchema = z.enum(NODE_SWITCHES);
export type NodeSwitch = z.infer<typeof nodeSwitchSchema>;

/**
 * The `subNodeType` filter of the initialised-node list: `withSubs` nodes that have at least one
 * sub-node (routes/sub-nodes.ts), `withoutSubs` nodes that have none.
 */
export const SUB_NODE_TYPES = ['withSubs', 'withoutSubs'] as const;
export const subNodeTypeSchema = z.enum(SUB_NODE_TYPES);
export type SubNodeType = z.infer<typeof subNodeTypeSchema>;

/**
 * A node's DNS record state, from the group lines it is placed on (Rampart has no DNS management
 * yet, so this says whether DNS *would* answer the node, not what a DNS provider holds):
 * `recorded` — the node sits on at least one line of a group, so the group's records name it;
 * `none` — it sits on no line: no record answers it and it gets no traffic by DNS.
 */
export const NODE_DNS_STATUSES = ['recorded', 'none'] as const;
export const nodeDnsStatusSchema = z.enum(NODE_DNS_STATUSES);
export type NodeDnsStatus = z.infer<typeof nodeDnsStatusSchema>;

/** A node the operator placed in a zone, with what its agent last reported. */
export const initializedNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  version: z.string(),
  zoneId: z.number().int(),
  zoneName: z.string(),
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), line: z.string() })),
  /** Snapshot version the agent applied last ('' before the first). */
  appliedVersion: z.string(),
  /**
   * Version the control plane would send the node now; equal to appliedVersion when in sync, ''
   * while none can be built (snapshotError says why).
   */
  currentVersion: z.string(),
  /**
   * The plane sequence the node's store holds, as it last reported ('' for a node that takes the
   * snapshot's data plane), and the last sequence that changed the node's plane ('' likewise): the
   * node is behind while the first is below the second.
   */
  appliedPlane: z.string(),
  currentPlane: z.string(),
  lastError: z.string(),
  /**
   * What the control plane could not put into the node's snapshot: sites left out (over the
   * node's limits, or rows the data plane refuses) and why, or why no snapshot can be built; ''
   * when none. The agent's own failures are in lastError.
   */
  snapshotError: z.string(),
  /**
   * Ports the node could not listen on at its latest report (another process holds them): it
   * serves everything else. A stream port names the site it belongs to.
   */
  failedPorts: z.array(
    z.object({
      kind: z.enum(['stream', 'listen']),
      port: z.number().int(),
      protocol: z.enum(['tcp', 'udp']),
      /** The site port's id and its site (stream ports only). */
      portID: z.number().int().nullable(),
      siteID: z.number().int().nullable(),
      error: z.string(),
    }),
  ),
  /** online: the agent reported within the last minute; offline: it did not. */
  connection: z.enum(['online', 'offline']),
  lastSeenAt: z.string().nullable(),
  createdAt: z.string(),
  /** on: serves its zone's sites; off: stays connected but serves none (see docs/decisions.md). */
  status: nodeSwitchSchema,
  memo: z.string(),
  /** Whether the node is watched by monitoring. */
  monitor: z.boolean(),
  /** The kind of group the node may sit in: 7 (sites) or 4 (layer-4 ports). */
  portType: portTypeSchema,
  /** Daily log rotation time (`HH:MM` UTC), null when the node only rotates on demand. */
  logRotateTime: dailyTimeSchema.nullable(),
  /** What the monitor groups say about the node (see client/monitor/nodes/enableStatus). */
  monitorState: nodeMonitorStatusSchema.optional(),
  upgradeStatus: nodeUpgradeStatusSchema,
  /** How many sub-nodes (extra addresses of the machine) the node has. */
  subNodeCount: z.number().int(),
  dnsStatus: nodeDnsStatusSchema,
});
export type InitializedNode = z.infer<typeof initializedNodeSchema>;

/** A node counts as online while its agent reported within this many seconds. */
export const NODE_ONLINE_WINDOW_SECONDS = 60;

const initializedNodesQuery = pageQuery.extend({
  zoneIDs: z
    .union([zIdParam, z.array(zIdParam).max(100)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  /** Searches the node name and its addresses. */
  value: z.string().max(256).optional(),
  portType: z.coerce.number().pipe(portTypeSchema).optional(),
  /** The agent version exactly as reported. */
  version: z.string().max(64).optional(),
  /** Nodes whose agent reports any other version (the upgrade page: nodes not on the served release). */
  notVersion: z.string().min(1).max(64).optional(),
  status: nodeSwitchSchema.optional(),
  upgradeStatuses: z
    .union([nodeUpgradeStatusSchema, z.array(nodeUpgradeStatusSchema).max(NODE_UPGRADE_STATUSES.length)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  subNodeType: subNodeTypeSchema.optional(),
  dnsStatus: nodeDnsStatusSchema.optional(),
});
/** The filters and page of the initialised-node list. */
export type InitializedNodesQuery = z.output<typeof initializedNodesQuery>;

export const listInitializedNodes = route.get('client.nodes.initialized', '/client/nodes/initialized', {
  summary: 'Nodes placed in zones, with the snapshot version each applied and its last error',
  query: initializedNodesQuery,
  response: pageOf(initializedNodeSchema),
});

export const nodeInfo = route.get('client.nodeInfo', '/client/node-info', {
  summary:
    'What a new node needs to join: `key=value` lines (control plane URL, join token, the install command for a fresh Debian machine, the install script URL, the command that runs a node beside the control plane from the repository)',
  response: z.string(),
  reply: 'raw',
});

export const nodeRoutes = {
  registerNode,
  reportNodeStatus,
  getNodeSnapshot,
  getNodePlane,
  getNodePlaneStream,
  listUninitializedNodes,
  listInitializedNodes,
  nodeInfo,
} as const;
