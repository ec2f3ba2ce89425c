/** One line of `GET client/node-info`: its key as sent (`join_token`) and camel-cased (`joinToken`, spec part 2 §7). */
export interface NodeInfoEntry {
  key: string;
  name: string;
  value: string;
}

/** Reads the `key=value` lines of the node-info text; the value is everything after the first `=`. */
export function parseNodeInfo(text: string): NodeInfoEntry[] {
  const entries: NodeInfoEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    entries.push({ key, name: camelCase(key), value: line.slice(at + 1).trim() });
  }
  return entries;
}

function camelCase(key: string): string {
  return key.toLowerCase().replace(/[_-]+([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}

/**
 * Whether a URL names a host only the machine itself reaches (localhost, 127.0.0.0/8, ::1): the
 * control plane's own address when PUBLIC_URL is unset, which no other machine can join through.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
