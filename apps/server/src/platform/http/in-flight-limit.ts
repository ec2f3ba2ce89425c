import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * Load shedding for one kind of request (a binder's `admit`, bind-route.ts): at most `max` in
 * flight, each counted from its arrival (before its body is read) until its connection's reply
 * closes. One more is refused at once — 101005 with HTTP 503 and `Retry-After` — instead of
 * being read, parsed and queued behind work it would wait on past its sender's timeout. The
 * Retry-After is the time the recent requests took, from arrival to reply (a moving average,
 * 1–60 s): about when the requests ahead have been served. A request admitted whose body stalls
 * is cut (its connection closed): in every `bodyMs` while its body is not all there, at least
 * `minBytes` must arrive. A sender that never sends its body, or trickles it, holds its place one
 * such window at most, not the server's request timeout; a slow but moving link (a node's megabytes
 * over a congested uplink) is not cut however long its batch takes. With a `key` (a node's id), one
 * key holds at most `maxPerKey` places: one more of it is refused alike, whatever places are free.
 */
export class InFlightLimit {
  private inFlight = 0;
  private readonly perKey = new Map<number, number>();
  /** Moving average of the served requests' time, ms. */
  private servedMs = 1000;

  constructor(
    readonly max: number,
    private readonly now: () => number = () => performance.now(),
    readonly bodyMs = 30_000,
    readonly minBytes = 16 * 1024,
    readonly maxPerKey = Number.POSITIVE_INFINITY,
  ) {}

  get current(): number {
    return this.inFlight;
  }

  /** Places the key holds now. */
  heldBy(key: number): number {
    return this.perKey.get(key) ?? 0;
  }

  /** The binder's `admit`; `key` counts the place against that key's share too. */
  readonly admit = (request: FastifyRequest, reply: FastifyReply, key?: number): void => {
    // Gone while an asynchronous admission looked its node up: its close was already emitted, so a
    // place taken now would never be given back. Refused, not let through: a body already buffered
    // would otherwise be handled without a place or its node's share (nobody reads this answer).
    if (reply.raw.closed) throw new AppError(101005, { status: 503 });
    const held = key === undefined ? 0 : this.heldBy(key);
    if (this.inFlight >= this.max || held >= this.maxPerKey) {
      const seconds = Math.min(60, Math.max(1, Math.ceil(this.servedMs / 1000)));
      throw new AppError(101005, { status: 503, headers: { 'retry-after': String(seconds) } });
    }
    this.inFlight++;
    if (key !== undefined) this.perKey.set(key, held + 1);
    const start = this.now();
    const req = request.raw;
    let deadline: NodeJS.Timeout | null = null;
    if (!req.complete) {
      let seen = req.socket.bytesRead;
      deadline = setInterval(() => {
        const read = req.socket.bytesRead;
        if (!req.complete && read - seen < this.minBytes) req.socket.destroy();
        seen = read;
      }, this.bodyMs);
      deadline.unref();
      req.once('end', () => clearInterval(deadline ?? undefined));
    }
    reply.raw.once('close', () => {
      if (deadline) clearInterval(deadline);
      this.inFlight--;
      if (key !== undefined) {
        const left = this.heldBy(key) - 1;
        if (left > 0) this.perKey.set(key, left);
        else this.perKey.delete(key);
      }
      // Only answered requests say how long serving takes (a client that went says nothing).
      if (reply.raw.writableFinished && reply.statusCode < 500) {
        this.servedMs = this.servedMs * 0.8 + (this.now() - start) * 0.2;
      }
    });
  };
}
