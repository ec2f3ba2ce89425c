import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ConfigChanges } from '../changes.js';

/**
 * Wakes every control-plane process on one PostgreSQL when one of them changes something a node's
 * poll waits on (docs/decisions.md "Several control planes wake each other"). Each shared signal
 * (a {@link ConfigChanges}: the configuration, the queued node commands) has a name; a local bump
 * sends, once its transaction committed, a NOTIFY on {@link CHANGES_CHANNEL} whose payload is
 * `<origin> <name>[,<name>…]`; each process LISTENs on one dedicated connection and bumps its own
 * signals of those names, except for what it sent itself. Receiving never sends: no echo, no loop.
 * Bursts are coalesced: at most one NOTIFY per {@link COALESCE_MS} per process, always one after the
 * last bump. The embedded PGlite has no other process to wake and does not use this.
 */
export const CHANGES_CHANNEL = 'rampart_changes';
/** At most one NOTIFY per this many milliseconds per process. */
export const COALESCE_MS = 50;
/** Waits before each new attempt to listen after the connection failed or dropped (the last repeats). */
const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

export interface BroadcastLog {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

export interface BroadcastTransport {
  /** Sends one NOTIFY on the channel (outside any transaction: the caller already waited for the commit). */
  notify(payload: string): Promise<void>;
  /** A new, unconnected client for the listening connection. */
  listener(): pg.Client;
}

export class ChangeBroadcast {
  /** This process's mark in the payloads it sends, so it ignores its own. */
  readonly origin = randomBytes(6).toString('hex');
  private readonly shared = new Map<string, ConfigChanges>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private lastSent = Number.NEGATIVE_INFINITY;
  private sending = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly send: (payload: string) => Promise<void>,
    /** Runs a callback once the caller's transaction committed (at once outside one). */
    private readonly afterCommit: (fn: () => void) => void,
    private readonly log: BroadcastLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** Publishes every local bump of `changes` as `name`, and bumps it when another process publishes `name`. */
  share(name: string, changes: ConfigChanges): void {
    if (!/^[a-z]+$/.test(name)) throw new Error(`bad signal name ${name}`);
    this.shared.set(name, changes);
    changes.publishTo(() => this.afterCommit(() => this.request(name)));
  }

  /** A payload received on the channel: bumps the named signals unless this process sent it. */
  received(payload: string): void {
    const [origin, names] = payload.split(' ');
    if (origin === this.origin || !names) return;
    for (const name of names.split(',')) this.shared.get(name)?.bumpFromElsewhere();
  }

  /** Bumps every signal without publishing: after the listener was down, a change may have been missed. */
  wakeAll(): void {
    for (const changes of this.shared.values()) changes.bumpFromElsewhere();
  }

  private request(name: string): void {
    if (this.closed) return;
    this.pending.add(name);
    if (this.timer) return;
    const wait = this.lastSent + COALESCE_MS - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = null;
    if (this.pending.size === 0) return;
    this.lastSent = this.now();
    const payload = `${this.origin} ${[...this.pending].sort().join(',')}`;
    this.pending.clear();
    const sent = this.send(payload).catch((error: unknown) => {
      // The others see the change on their periodic re-check instead.
      this.log.warn({ err: error }, 'could not notify the other control planes of a change');
    });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Sends what is pending and waits for the sends in flight; later bumps stay local. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
    this.closed = true;
    await Promise.all(this.sending);
  }
}

/**
 * The one listening connection of a process: LISTEN on the channel, each notification handed to
 * the broadcast. When the connection fails or drops it tries again with backoff; meanwhile the
 * polls fall back to their periodic re-check, and the log says so. Once listening again, every
 * signal is bumped (what changed meanwhile is not lost: each poll looks again).
 */
export class ChangeListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private down = false;
  private closed = false;

  constructor(
    private readonly connect: () => pg.Client,
    private readonly broadcast: ChangeBroadcast,
    private readonly log: BroadcastLog,
  ) {}

  /** Listens; resolves after the first attempt, whether it succeeded or a retry is scheduled. */
  async start(): Promise<void> {
    await this.attempt();
  }

  /** Whether the connection is listening now. */
  get listening(): boolean {
    return this.client !== null;
  }

  private async attempt(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = this.connect();
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (!this.closed) this.failed(error ?? new Error('the connection ended'));
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL) this.broadcast.received(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (lost) return;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
    if (this.down) {
      this.down = false;
      this.log.info({ channel: CHANGES_CHANNEL }, 'listening again for changes made by other control planes');
      this.broadcast.wakeAll();
    }
  }

  private failed(error: Error): void {
    const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)] ?? 30_000;
    this.failures += 1;
    if (!this.down) {
      this.down = true;
      this.log.warn(
        { err: error, channel: CHANGES_CHANNEL, retryMs: wait },
        'not listening for changes made by other control planes; until this reconnects, nodes polling this one see them on the periodic re-check (up to 60 s)',
      );
    }
    this.retry = setTimeout(() => void this.attempt(), wait);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}

/** Both halves on PostgreSQL: publishing local bumps and listening for the others'. */
export async function startChangeBroadcast(
  transport: BroadcastTransport,
  afterCommit: (fn: () => void) => void,
  log: BroadcastLog,
): Promise<{ broadcast: ChangeBroadcast; close(): Promise<void> }> {
  const broadcast = new ChangeBroadcast((payload) => transport.notify(payload), afterCommit, log);
  const listener = new ChangeListener(() => transport.listener(), broadcast, log);
  await listener.start();
  return {
    broadcast,
    async close() {
      await listener.close();
      await broadcast.close();
    },
  };
}
