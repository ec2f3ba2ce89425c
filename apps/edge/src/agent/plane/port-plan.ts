import type { EdgeSnapshot, NodeFailedPort } from '@rampart/contract';
import type { NginxSettingsInput } from '../../nginx/settings.js';
import { failure, type PlannedPort } from './port-check.js';

/*
 * The ports an apply plans (apply.ts): every port the settings listen on, the settings without
 * the ports that failed to bind, and the ports nginx's error names that were not known to fail.
 */

/** Every port `settings` listens on, with the snapshot number it stands for. */
export function plannedPorts(snapshot: EdgeSnapshot, settings: NginxSettingsInput): PlannedPort[] {
  const listen = (ports: number[], local: number[]): PlannedPort[] =>
    ports.map((port, i) => ({ kind: 'listen', port, localPort: local[i] ?? port, protocol: 'tcp' }));
  const stream = (snapshot.streamPorts ?? []).flatMap((p, i): PlannedPort[] => {
    const localPort = settings.streamPorts?.[i]?.port ?? p.port;
    const protocols = p.protocol === 'both' ? (['tcp', 'udp'] as const) : ([p.protocol] as const);
    return protocols.map((protocol) => ({ kind: 'stream', id: p.id, port: p.port, localPort, protocol }));
  });
  return [
    ...listen(snapshot.listen.httpPorts, settings.httpPorts),
    ...listen(snapshot.listen.httpsPorts, settings.httpsPorts),
    ...stream,
  ];
}

/**
 * `settings` without the failed ports: a stream port loses the failed protocol (a `both` port whose
 * UDP side failed keeps TCP), a listen port goes while another listen port remains.
 */
export function withoutPorts(
  settings: NginxSettingsInput,
  failed: readonly NodeFailedPort[],
  planned: readonly PlannedPort[],
): NginxSettingsInput {
  if (failed.length === 0) return settings;
  const streamFailed = (id: number, protocol: 'tcp' | 'udp') =>
    failed.some((f) => f.kind === 'stream' && f.id === id && f.protocol === protocol);
  const streamPorts = (settings.streamPorts ?? []).flatMap((p) => {
    const tcp = p.protocol !== 'udp' && !streamFailed(p.id, 'tcp');
    const udp = p.protocol !== 'tcp' && !streamFailed(p.id, 'udp');
    if (!tcp && !udp) return [];
    return [{ ...p, protocol: tcp && udp ? ('both' as const) : tcp ? ('tcp' as const) : ('udp' as const) }];
  });
  const dropped = new Set(
    planned
      .filter((p) => p.kind === 'listen' && failed.some((f) => f.kind === 'listen' && f.port === p.port))
      .map((p) => p.localPort),
  );
  let { httpPorts, httpsPorts } = settings;
  const http = httpPorts.filter((p) => !dropped.has(p));
  const https = httpsPorts.filter((p) => !dropped.has(p));
  if (http.length + https.length > 0) {
    httpPorts = http;
    httpsPorts = https;
  }
  return { ...settings, httpPorts, httpsPorts, streamPorts };
}

/** Ports nginx's error says it could not bind that are not among `failed` yet. */
export function newlyFailed(
  named: readonly { localPort: number; error: string }[],
  planned: readonly PlannedPort[],
  failed: readonly NodeFailedPort[],
): NodeFailedPort[] {
  const known = new Set(failed.map((f) => `${f.kind}/${f.id ?? ''}/${f.protocol}/${f.port}`));
  const out: NodeFailedPort[] = [];
  for (const { localPort, error } of named) {
    // nginx's message does not say TCP or UDP: every planned use of the port goes.
    for (const p of planned) {
      const k = `${p.kind}/${p.id ?? ''}/${p.protocol}/${p.port}`;
      if (p.localPort !== localPort || known.has(k)) continue;
      known.add(k);
      out.push(failure(p, error));
    }
  }
  return out;
}
