import {
  cacheTaskRoutes,
  type InitializedNode,
  nodeUpgradeRoutes,
  nodeOperationRoutes as ops,
} from '@rampart/contract';
import { urlsOf } from '../../../features/cache/CacheTasks';
import { callAuthed } from '../../../session';

/** What the operator can do to one node or a selection (spec part 2 §7 "Nodes"). */
export const COMMAND_ACTIONS = ['reboot', 'reset', 'logRotate', 'upgrade', 'clearCache', 'purgeCache'] as const;
export const SWITCH_ACTIONS = ['on', 'off'] as const;
export const SETTING_ACTIONS = ['memo', 'monitor', 'portType', 'logRotateTime'] as const;
export type NodeActionKind =
  | (typeof COMMAND_ACTIONS)[number]
  | (typeof SWITCH_ACTIONS)[number]
  | (typeof SETTING_ACTIONS)[number];

/** An action chosen from a row's menu or the selection's menu, waiting for its dialog. */
export interface NodeAction {
  kind: NodeActionKind;
  nodes: InitializedNode[];
}

/** The values of the action dialog's form (only the field of the chosen setting is shown). */
export interface NodeActionValues {
  memo?: string;
  monitor?: boolean;
  portType?: 7 | 4;
  /** '' means none (rotate on demand only). */
  time?: string;
  /** The URLs to purge, one per line. */
  urls?: string;
}

/** The call each action makes. */
const ACTION_ROUTES = {
  reboot: ops.rebootZoneNodes,
  reset: ops.resetZoneNodes,
  clearCache: cacheTaskRoutes.clearNodesCache,
  purgeCache: cacheTaskRoutes.purgeNodesCache,
  logRotate: ops.rotateNodeLogs,
  upgrade: nodeUpgradeRoutes.upgradeNodes,
  on: ops.setNodeStatus,
  off: ops.setNodeStatus,
  memo: ops.setNodeMemo,
  monitor: ops.setNodeMonitor,
  portType: ops.setNodePortType,
  logRotateTime: ops.setNodeLogRotateTime,
} as const satisfies Record<NodeActionKind, { path: string }>;

/** An action whose call sits under one zone's path (reboot, reset, the cache calls) takes nodes of one zone. */
export function isZoneCommand(kind: NodeActionKind): boolean {
  return ACTION_ROUTES[kind].path.includes('{zoneID}');
}

/** The zone all `nodes` are in, or null when they span several. */
export function commonZone(nodes: readonly InitializedNode[]): number | null {
  const zones = new Set(nodes.map((n) => n.zoneId));
  return zones.size === 1 ? (nodes[0]?.zoneId ?? null) : null;
}

/** Makes the call of an action, all or none over its nodes. */
export async function runNodeAction(action: NodeAction, values: NodeActionValues): Promise<unknown> {
  const ids = action.nodes.map((n) => n.id);
  switch (action.kind) {
    case 'reboot':
    case 'reset': {
      const zoneID = commonZone(action.nodes);
      if (zoneID === null) throw new Error('reboot and reset take the nodes of one zone');
      return callAuthed('client', ACTION_ROUTES[action.kind], { params: { zoneID }, body: { ids } });
    }
    case 'clearCache':
    case 'purgeCache': {
      const zoneID = commonZone(action.nodes);
      if (zoneID === null) throw new Error('cache calls take the nodes of one zone');
      return action.kind === 'clearCache'
        ? callAuthed('client', cacheTaskRoutes.clearNodesCache, { params: { zoneID }, body: { ids } })
        : callAuthed('client', cacheTaskRoutes.purgeNodesCache, {
            params: { zoneID },
            body: { ids, type: 'url', urls: urlsOf(values.urls) },
          });
    }
    case 'logRotate':
      return callAuthed('client', ops.rotateNodeLogs, { body: { ids } });
    case 'upgrade':
      return callAuthed('client', nodeUpgradeRoutes.upgradeNodes, { body: { ids } });
    case 'on':
    case 'off':
      return callAuthed('client', ops.setNodeStatus, { body: { ids, status: action.kind } });
    case 'memo':
      return callAuthed('client', ops.setNodeMemo, { body: { ids, memo: values.memo ?? '' } });
    case 'monitor':
      return callAuthed('client', ops.setNodeMonitor, { body: { ids, monitor: values.monitor ?? false } });
    case 'portType':
      return callAuthed('client', ops.setNodePortType, { body: { ids, portType: values.portType ?? 7 } });
    case 'logRotateTime':
      return callAuthed('client', ops.setNodeLogRotateTime, { body: { ids, time: values.time?.trim() || null } });
  }
}
