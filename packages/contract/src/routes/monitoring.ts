import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, nodeAccess, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';

/**
 * Monitoring (spec part 2 §7 "Monitoring"). A monitor node is one of the operator's registered
 * nodes chosen to probe: a dedicated machine that stays uninitialised, or an edge node that also
 * probes. A monitor group names the monitor nodes that probe, the edge nodes they probe (targets)
 * and how: interval, timeout and the number of consecutive failures that mark a target down. The
 * monitors fetch their assignments (`GET /api/edge/v1/probes`), connect over TCP to each target's
 * zone listen ports and report the results; the control plane records each target's up/down
 * transitions with their time.
 */

/** A target's state: up, down, or unknown before the monitors agreed on anything. */
export const MONITOR_STATES = ['up', 'down', 'unknown'] as const;
export const monitorStateSchema = z.enum(MONITOR_STATES);
export type MonitorState = z.infer<typeof monitorStateSchema>;

/** Bounds of a group's probe settings (seconds, count). */
export const MONITOR_LIMITS = {
  intervalMin: 10,
  intervalMax: 3600,
  timeoutMin: 1,
  timeoutMax: 30,
  thresholdMin: 1,
  thresholdMax: 10,
  monitorsPerGroup: 16,
  targetsPerGroup: 500,
  resultsPerReport: 2000,
  /** Transitions shown per target in a group's target list. */
  historyPerTarget: 5,
} as const;

const ts = z.string();

/** The node a monitor node is: what the operator needs to recognise it. */
const monitorNodeRef = {
  nodeId: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  /** Whether the node is also an initialised edge node (else a dedicated monitor machine). */
  initialized: z.boolean(),
  connection: z.enum(['online', 'offline']),
};

export const monitorNodeSchema = z.object({
  id: z.number().int(),
  ...monitorNodeRef,
  memo: z.string(),
  /** A disabled monitor node gets no assignments (its probes pause). */
  enabled: z.boolean(),
  groups: z.array(idNameSchema),
  createdAt: ts,
});
export type MonitorNode = z.infer<typeof monitorNodeSchema>;

const route = routeFamily({
  tags: ['monitoring'],
  read: tiers(['client'], 'client.monitor.read'),
  write: tiers(['client'], 'client.monitor.write'),
});

export const listMonitorNodes = route.get('client.monitor.nodes.list', '/client/monitor/nodes', {
  summary: "The operator's monitor nodes, paged",
  query: pageQuery,
  response: pageOf(monitorNodeSchema),
});

export const metaMonitors = route.get('client.monitor.nodes.meta', '/client/monitor/metaMonitors', {
  summary: 'Every monitor node as id and name, for pickers',
  response: dataOf(z.array(z.object({ id: z.number().int(), name: z.string(), enabled: z.boolean() }))),
});

export const monitorCandidateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  connection: z.enum(['online', 'offline']),
  createdAt: ts,
});

export const listMonitorCandidates = route.get('client.monitor.nodes.notInit', '/client/monitor/nodes/notInit', {
  summary: 'Registered nodes that are not initialised and not monitor nodes yet: dedicated monitor candidates',
  query: pageQuery,
  response: pageOf(monitorCandidateSchema),
});

const monitorNodeBody = z.object({ nodeID: zId, memo: zMemo, enabled: z.boolean().default(true) });
export type MonitorNodeIn = z.output<typeof monitorNodeBody>;
const monitorNodeUpdateBody = z.object({ id: zId, memo: zMemo, enabled: z.boolean() });
export type MonitorNodeUpdateIn = z.output<typeof monitorNodeUpdateBody>;

export const createMonitorNode = route.post('client.monitor.node.create', '/client/monitor/node', {
  codes: [101025],
  summary: "Makes one of the operator's registered nodes a monitor node (101025 when it is one already)",
  body: monitorNodeBody,
  response: dataOf(monitorNodeSchema),
});

export const updateMonitorNode = route.put('client.monitor.node.update', '/client/monitor/node', {
  summary: "Changes a monitor node's memo or pauses it",
  body: monitorNodeUpdateBody,
  response: dataOf(monitorNodeSchema),
});

export const deleteMonitorNode = route.delete('client.monitor.node.delete', '/client/monitor/node', {
  summary: 'Stops using a node as a monitor; it leaves its groups (the node itself stays)',
  body: z.object({ id: zId }),
  response: okReply,
});

/** Where a target stands in one group. `since`: when it entered the state (null while unknown). */
const targetStateFields = {
  state: monitorStateSchema,
  since: ts.nullable(),
  /** The last result any monitor of the group reported for it. */
  checkedAt: ts.nullable(),
  /** Why it is down ('' when up or unknown): the ports that refused or timed out. */
  reason: z.string(),
};

export const monitorGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  memo: z.string(),
  enabled: z.boolean(),
  intervalSeconds: z.number().int(),
  timeoutSeconds: z.number().int(),
  failureThreshold: z.number().int(),
  monitors: z.array(idNameSchema),
  targets: z.array(idNameSchema),
  /** Targets per state. */
  counts: z.object({ up: z.number().int(), down: z.number().int(), unknown: z.number().int() }),
  createdAt: ts,
});
export type MonitorGroup = z.infer<typeof monitorGroupSchema>;

const monitorGroupBody = z
  .object({
    name: zName,
    memo: zMemo,
    enabled: z.boolean().default(true),
    intervalSeconds: z.number().int().min(MONITOR_LIMITS.intervalMin).max(MONITOR_LIMITS.intervalMax),
    timeoutSeconds: z.number().int().min(MONITOR_LIMITS.timeoutMin).max(MONITOR_LIMITS.timeoutMax),
    failureThreshold: z.number().int().min(MONITOR_LIMITS.thresholdMin).max(MONITOR_LIMITS.thresholdMax),
    /** Monitor node ids (not node ids) that probe. */
    monitorIDs: zIds(MONITOR_LIMITS.monitorsPerGroup),
    /** Initialised node ids that are probed. */
    nodeIDs: zIds(MONITOR_LIMITS.targetsPerGroup),
  })
  // A probe must end before the next one starts.
  .superRefine((b, ctx) => {
    if (b.timeoutSeconds >= b.intervalSeconds) {
      ctx.addIssue({
        code: 'custom',
        path: ['timeoutSeconds'],
        message: 'tooBig',
        params: { key: 'tooBig', max: b.intervalSeconds - 1 },
      });
    }
  });

export type MonitorGroupIn = z.output<typeof monitorGroupBody>;
const monitorGroupUpdateBody = monitorGroupBody.safeExtend({ id: zId });
export type MonitorGroupUpdateIn = z.output<typeof monitorGroupUpdateBody>;

export const listMonitorGroups = route.get('client.monitor.groups.list', '/client/monitor/groups', {
  summary: "The operator's monitor groups, paged, with their monitors, targets and how many are up or down",
  query: pageQuery,
  response: pageOf(monitorGroupSchema),
});

export const metaMonitorGroups = route.get('client.monitor.groups.meta', '/client/monitor/metaGroups', {
  summary: 'Every monitor group as id and name, for pickers',
  response: dataOf(z.array(idNameSchema)),
});

export const createMonitorGroup = route.post('client.monitor.group.create', '/client/monitor/group', {
  codes: [101025],
  summary: 'Creates a monitor group (101025 when the name is taken)',
  body: monitorGroupBody,
  response: dataOf(monitorGroupSchema),
});

export const updateMonitorGroup = route.put('client.monitor.group.update', '/client/monitor/group', {
  codes: [101025],
  summary: 'Changes a monitor group; targets that stay keep their state, new ones start unknown',
  body: monitorGroupUpdateBody,
  response: dataOf(monitorGroupSchema),
});

export const deleteMonitorGroup = route.delete('client.monitor.group.delete', '/client/monitor/group', {
  summary: 'Deletes a monitor group and its history',
  body: z.object({ id: zId }),
  response: okReply,
});

export const monitorTargetSchema = z.object({
  nodeId: z.number().int(),
  name: z.string(),
  ips: z.array(z.string()),
  zoneName: z.string(),
  ...targetStateFields,
  /** The latest transitions, newest first. */
  history: z.array(z.object({ state: monitorStateSchema, at: ts, reason: z.string() })),
});
export type MonitorTarget = z.infer<typeof monitorTargetSchema>;

const monitorTargetQuery = pageQuery.extend({ state: monitorStateSchema.optional() });
export type MonitorTargetQuery = z.output<typeof monitorTargetQuery>;

export const listMonitorGroupNodes = route.get('client.monitor.group.nodes', '/client/monitor/group/{id}/nodes', {
  summary: "A monitor group's targets with their state, since when, and their latest transitions",
  params: z.object({ id: zIdParam }),
  query: monitorTargetQuery,
  response: pageOf(monitorTargetSchema),
});

/**
 * A node's monitoring state across its groups: down when any group has it down, else up when any
 * has it up, else unknown; `unmonitored` when no enabled group probes it. `since`: for down, the
 * earliest change to down among the groups that say so; for up, the latest change to up.
 */
export const NODE_MONITOR_STATES = [...MONITOR_STATES, 'unmonitored'] as const;
export const nodeMonitorStatusSchema = z.object({
  state: z.enum(NODE_MONITOR_STATES),
  since: ts.nullable(),
});
export type NodeMonitorStatus = z.infer<typeof nodeMonitorStatusSchema>;

const nodeMonitorStatusQuery = pageQuery.extend({
  state: z.enum(NODE_MONITOR_STATES).optional(),
  value: z.string().max(256).optional(),
});
export type NodeMonitorStatusQuery = z.output<typeof nodeMonitorStatusQuery>;

export const listNodesEnableStatus = route.get(
  'client.monitor.nodes.enableStatus',
  '/client/monitor/nodes/enableStatus',
  {
    summary: "The operator's initialised nodes with their monitoring state, filtered by state and name/address",
    query: nodeMonitorStatusQuery,
    response: pageOf(
      z.object({
        id: z.number().int(),
        name: z.string(),
        ips: z.array(z.string()),
        zoneName: z.string(),
        ...nodeMonitorStatusSchema.shape,
        groups: z.array(z.object({ id: z.number().int(), name: z.string(), ...targetStateFields })),
      }),
    ),
  },
);

/** What one monitor node probes: per group, its settings and targets (address and ports). */
export const probeAssignmentSchema = z.object({
  groupId: z.number().int(),
  intervalSeconds: z.number().int(),
  timeoutSeconds: z.number().int(),
  targets: z.array(
    z.object({
      nodeId: z.number().int(),
      ip: z.union([z.ipv4(), z.ipv6()]),
      ports: z.array(z.number().int().min(1).max(65_535)).min(1).max(32),
    }),
  ),
});
export type ProbeAssignment = z.infer<typeof probeAssignmentSchema>;

export const getProbes = route.get('edge.probes', '/probes', {
  api: 'edge',
  access: nodeAccess,
  summary: 'What this node probes as a monitor node (an empty list when it is not one, or paused)',
  tags: ['edge'],
  response: dataOf(z.array(probeAssignmentSchema)),
});

export const probeResultSchema = z.object({
  groupId: zId,
  nodeId: zId,
  /** True when every port accepted a TCP connection within the timeout. */
  ok: z.boolean(),
  /** The ports that failed and why (e.g. `443 ECONNREFUSED`); '' when ok. */
  reason: z.string().max(256).default(''),
});

export type ProbeResultIn = z.output<typeof probeResultSchema>;

export const reportProbeResults = route.post('edge.probes.results', '/probes/results', {
  api: 'edge',
  access: nodeAccess,
  codes: [101018],
  summary: 'A monitor node reports one round of probes; all or none (101018 for a pair it is not assigned)',
  tags: ['edge'],
  body: z.object({ results: z.array(probeResultSchema).min(1).max(MONITOR_LIMITS.resultsPerReport) }),
  response: okReply,
});

export const monitoringRoutes = {
  listMonitorNodes,
  metaMonitors,
  listMonitorCandidates,
  createMonitorNode,
  updateMonitorNode,
  deleteMonitorNode,
  listMonitorGroups,
  metaMonitorGroups,
  createMonitorGroup,
  updateMonitorGroup,
  deleteMonitorGroup,
  listMonitorGroupNodes,
  listNodesEnableStatus,
  getProbes,
  reportProbeResults,
} as const;
