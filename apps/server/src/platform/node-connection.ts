import { NODE_ONLINE_WINDOW_SECONDS } from '@rampart/contract';

/** online while the agent reported within NODE_ONLINE_WINDOW_SECONDS of `now`. */
export function nodeConnection(lastSeenAt: Date | null, now: number): 'online' | 'offline' {
  return lastSeenAt && now - lastSeenAt.getTime() <= NODE_ONLINE_WINDOW_SECONDS * 1000 ? 'online' : 'offline';
}
