import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InFlightLimit } from '../src/platform/http/in-flight-limit.js';

// The body rule of an admitted request (platform/http/in-flight-limit.ts): a body that stalls loses
// its place within a window, one that keeps moving keeps it however long it takes (a node's
// megabytes over a slow uplink). Driven with fake timers over a stand-in socket whose bytesRead the
// test advances: the same counter Node's socket keeps.

class FakeSocket {
  bytesRead = 0;
  destroyed = false;
  destroy() {
    this.destroyed = true;
  }
}

function admitted(limit: InFlightLimit, key?: number, closed = false) {
  const socket = new FakeSocket();
  const raw = Object.assign(new EventEmitter(), { complete: false, socket });
  const replyRaw = Object.assign(new EventEmitter(), { writableFinished: false, closed });
  limit.admit({ raw } as unknown as FastifyRequest, { raw: replyRaw, statusCode: 200 } as unknown as FastifyReply, key);
  return { socket, raw, replyRaw };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('an admitted request’s body', () => {
  it('is cut when nothing arrives within a window, and its place is freed with the connection', () => {
    const limit = new InFlightLimit(1, undefined, 1000, 16 * 1024);
    const { socket, replyRaw } = admitted(limit);
    expect(limit.current).toBe(1);
    vi.advanceTimersByTime(999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
    replyRaw.emit('close');
    expect(limit.current).toBe(0);
  });

  it('is cut when it trickles below the least a window must bring', () => {
    const limit = new InFlightLimit(1, undefined, 1000, 16 * 1024);
    const { socket } = admitted(limit);
    for (let i = 0; i < 3; i++) {
      socket.bytesRead += 20 * 1024;
      vi.advanceTimersByTime(1000);
    }
    expect(socket.destroyed).toBe(false);
    socket.bytesRead += 1024;
    vi.advanceTimersByTime(1000);
    expect(socket.destroyed).toBe(true);
  });

  it('keeps its place while it keeps moving, however many windows it takes', () => {
    const limit = new InFlightLimit(1, undefined, 1000, 16 * 1024);
    const { socket, raw } = admitted(limit);
    for (let i = 0; i < 60; i++) {
      socket.bytesRead += 17 * 1024;
      vi.advanceTimersByTime(1000);
    }
    expect(socket.destroyed).toBe(false);
    // Once the body is in, waiting for the store is never cut.
    raw.complete = true;
    raw.emit('end');
    vi.advanceTimersByTime(10_000);
    expect(socket.destroyed).toBe(false);
  });
});

describe('a key’s share of the places', () => {
  it('refuses one more of a key at its share while places are free, and frees its share with each close', () => {
    const limit = new InFlightLimit(16, undefined, 1000, 16 * 1024, 2);
    const first = admitted(limit, 7);
    admitted(limit, 7);
    expect(() => admitted(limit, 7)).toThrow(expect.objectContaining({ code: 101005 }));
    // Another key, and a request without one, are taken.
    admitted(limit, 8);
    admitted(limit);
    expect(limit.current).toBe(4);
    expect(limit.heldBy(7)).toBe(2);
    first.replyRaw.emit('close');
    expect(limit.heldBy(7)).toBe(1);
    admitted(limit, 7);
    expect(limit.heldBy(7)).toBe(2);
    expect(limit.current).toBe(4);
  });

  it('refuses, and takes no place for, a request whose connection closed before it was admitted (its close will not come again)', () => {
    const limit = new InFlightLimit(16, undefined, 1000, 16 * 1024, 2);
    // Refused rather than let through: a body already buffered would be handled without a place.
    expect(() => admitted(limit, 7, true)).toThrow(expect.objectContaining({ code: 101005 }));
    expect(limit.current).toBe(0);
    expect(limit.heldBy(7)).toBe(0);
  });
});
