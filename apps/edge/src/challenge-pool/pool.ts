import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';
import { pause } from '../agent/backoff.js';
import { errorText, type Logger } from '../agent/log.js';
import { type AdminEndpoint, adminRequest } from '../data-plane/admin-client.js';
import { codeImage, newCode } from './code-image.js';
import { Random } from './raster.js';
import { sliderImages } from './slider-image.js';

/**
 * The node's challenge image pool (docs/decisions.md "The code and slider challenges"): the agent
 * draws POOL_CODES code images and POOL_SLIDERS slider puzzles, pushes them with their answers into
 * nginx's `rampart_challenge_pool` dict (admin `PUT /challenge/pool`), and draws a new pool every
 * POOL_REFRESH_SECONDS or whenever nginx has none (a restart empties the dict), while the node
 * serves a site with a challenge rule (its data plane carries challenge keys). nginx keeps the
 * previous pool too, so a challenge served just before a refresh can still be answered. The answers
 * stay on the node: the page gets the images and a signed token naming the entry, never the answer.
 */

export const POOL_CODES = 64;
export const POOL_SLIDERS = 32;
export const POOL_REFRESH_SECONDS = 600;
/** How often the keeper asks nginx which pool it holds. */
export const POOL_CHECK_MS = 5_000;

export interface ChallengePool {
  /** 8 hex characters, new for every pool. */
  id: string;
  code: { image: string; answer: string }[];
  slider: { background: string; piece: string; x: number; y: number }[];
}

/** Draws a pool (base64 PNGs), yielding to the event loop between images so the agent stays responsive. */
export async function drawPool(codes = POOL_CODES, sliders = POOL_SLIDERS): Promise<ChallengePool> {
  const random = new Random();
  const pool: ChallengePool = { id: randomBytes(4).toString('hex'), code: [], slider: [] };
  for (let i = 0; i < codes; i++) {
    const answer = newCode();
    pool.code.push({ image: codeImage(answer, random).toString('base64'), answer });
    await yieldToLoop();
  }
  for (let i = 0; i < sliders; i++) {
    const s = sliderImages(random);
    pool.slider.push({
      background: s.background.toString('base64'),
      piece: s.piece.toString('base64'),
      x: s.x,
      y: s.y,
    });
    await yieldToLoop();
  }
  return pool;
}

const poolAnswer = z.object({ id: z.string(), age: z.number().int().min(0) });

/** The pool nginx holds now ({id, age in seconds}), or null when it has none. */
export async function heldPool(endpoint: AdminEndpoint): Promise<z.infer<typeof poolAnswer> | null> {
  const { status, text } = await adminRequest(endpoint, 'GET', '/challenge/pool', undefined, 10_000);
  if (status === 404) return null;
  if (status !== 200) throw new Error(`challenge pool status refused with ${status}: ${text.slice(0, 200)}`);
  return poolAnswer.parse(JSON.parse(text));
}

/** Gives nginx `pool` (it becomes the pool new challenges use; the one before stays answerable). */
export async function pushPool(endpoint: AdminEndpoint, pool: ChallengePool): Promise<void> {
  const { status, text } = await adminRequest(endpoint, 'PUT', '/challenge/pool', JSON.stringify(pool), 60_000);
  if (status !== 200) throw new Error(`challenge pool refused with ${status}: ${text.slice(0, 200)}`);
}

export interface PoolKeeperOptions {
  admin: AdminEndpoint;
  /** Whether the node needs a pool now (a site of its data plane challenges). */
  needed: () => boolean;
  log: Logger;
  signal: AbortSignal;
  checkMs?: number;
  refreshSeconds?: number;
}

/** Keeps nginx supplied with a fresh pool for as long as the agent runs. */
export class PoolKeeper {
  private failing = false;
  /** Pools pushed since the agent started. */
  pushed = 0;

  constructor(private readonly options: PoolKeeperOptions) {}

  async run(): Promise<void> {
    const { signal } = this.options;
    while (!signal.aborted) {
      await this.check();
      await pause(this.options.checkMs ?? POOL_CHECK_MS, signal);
    }
  }

  /** One round: a new pool when nginx has none or its pool is due for refresh. */
  async check(): Promise<void> {
    const { admin, log } = this.options;
    if (!this.options.needed()) return;
    try {
      const held = await heldPool(admin);
      if (held !== null && held.age < (this.options.refreshSeconds ?? POOL_REFRESH_SECONDS)) return;
      const pool = await drawPool();
      if (this.options.signal.aborted) return;
      await pushPool(admin, pool);
      this.pushed++;
      log('info', 'challenge.pool_pushed', { id: pool.id, codes: pool.code.length, sliders: pool.slider.length });
      if (this.failing) log('info', 'challenge.pool_recovered', {});
      this.failing = false;
    } catch (err) {
      // nginx not (yet) running or restarting: said once per failing stretch, tried again next round.
      if (!this.failing) log('warn', 'challenge.pool_failed', { error: errorText(err) });
      this.failing = true;
    }
  }
}
