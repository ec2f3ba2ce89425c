import type { WafPlace } from '../helpers/waf-send.js';

/**
 * One generated case: a value sent under a parameter `name` in a part of the request (`place`),
 * or a whole request path (`path`, with `value` unused).
 */
export interface MaterialCase {
  place: WafPlace;
  name: string;
  value: string;
  /** How it was made (technique, encoding), for reports. */
  how: string;
  /**
   * A whole request instead, when the technique needs one as sent (a raw path or query string, a
   * Content-Type header, a route): then `place`/`name`/`value` only describe it.
   */
  request?: MaterialRequest;
}

export interface MaterialRequest {
  method: string;
  /** Path and query string, sent as written (no encoding added). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Material {
  /** Public descriptions of the techniques the generator draws on. */
  sources: string[];
  attacks: MaterialCase[];
  benign: MaterialCase[];
}

/** Every combination of the lists, as tuples. */
export function cross<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  return a.flatMap((x) => b.map((y) => [x, y] as [A, B]));
}

/** Picks every k-th element (deterministic thinning of a large cross product). */
export function every<T>(list: readonly T[], k: number, offset = 0): T[] {
  return list.filter((_, i) => (i + offset) % k === 0);
}
