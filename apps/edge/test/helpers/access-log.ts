import type { Edge } from './edge.js';

/** The firewall's fields of an access-log line (render.ts's JSON log format). */
export interface FirewallLogLine {
  remote_addr: string;
  uri: string;
  status: string;
  fw_kind: string;
  fw_rule: string;
  fw_action: string;
}

/** The access-log lines of `uris`, the last of each (the log is flushed every second: polled up to 4 s). */
export async function firewallLogLines(edge: Edge, uris: string[]): Promise<Map<string, FirewallLogLine>> {
  let found = new Map<string, FirewallLogLine>();
  for (let i = 0; i < 40 && found.size < uris.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    found = new Map(
      (await edge.accessLog())
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as FirewallLogLine)
        .filter((entry) => uris.includes(entry.uri))
        .map((entry) => [entry.uri, entry]),
    );
  }
  return found;
}
