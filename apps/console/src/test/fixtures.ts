import type { InitializedNode } from '@rampart/contract';

/** An initialised node as `GET client/nodes/initialized` answers it; tests override what they look at. */
export function initializedNode(overrides: Partial<InitializedNode> = {}): InitializedNode {
  return {
    id: 21,
    name: 'edge-paris-1',
    ips: ['198.51.100.4'],
    version: '0.3.0',
    zoneId: 2,
    zoneName: 'Europe',
    groups: [],
    appliedVersion: 'a'.repeat(32),
    currentVersion: 'a'.repeat(32),
    lastError: '',
    connection: 'online',
    lastSeenAt: '2026-03-01T10:05:00.000Z',
    createdAt: '2026-03-01T10:00:00.000Z',
    status: 'on',
    memo: '',
    monitor: false,
    portType: 7,
    logRotateTime: null,
    upgradeStatus: 'none',
    subNodeCount: 0,
    dnsStatus: 'none',
    ...overrides,
  };
}
