import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';

export interface ThrottleRule {
  /** Failures allowed inside the window before the key is blocked. */
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Counts failed sign-in attempts per key in a sliding window. A blocked key is refused whatever
 * is presented, the right password included, so a block reveals nothing about the password; it
 * lifts by itself when the window has passed (no permanent lock-out that an attacker could use to
 * keep the owner out).
 *
 * Kept in memory: several control planes behind a load balancer each keep their own counts, which
 * at worst multiplies the limit by their number.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly clock: Clock,
    /** Upper bound on tracked keys, so spraying random keys cannot grow memory without end. */
    private readonly maxKeys = 100_000,
  ) {}

  private recent(key: string): number[] {
    const since = this.clock() - this.rule.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfterMs(key: string): number {
    const list = this.recent(key);
    if (list.length < this.rule.limit) return 0;
    return (list[list.length - this.rule.limit] as number) + this.rule.windowMs - this.clock();
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.clock());
    this.failures.set(key, list);
    if (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}

/**
 * The answer while a throttle holds: 101012 with HTTP 429, `Retry-After` and
 * `extra.retryAfterSeconds` (the login form's; every throttled call answers alike).
 */
export function throttledError(retryMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new AppError(101012, {
    status: 429,
    headers: { 'retry-after': String(seconds) },
    extra: { retryAfterSeconds: seconds },
  });
}

/**
 * The binder's limit of calls that connect out or send mail when made (`sendsOnDemand` in the
 * contract): each account may make `rule.limit` calls of each such route per window, counted
 * whatever the call then answers (a failed test connected too). Per account, not per address:
 * an API token or a second browser of the account shares its count.
 */
export function onDemandSendLimit(
  rule: ThrottleRule,
  clock: Clock,
): (caller: { accountId: number }, route: { id: string }) => void {
  const calls = new FailureThrottle(rule, clock);
  return (caller, route) => {
    const key = `${caller.accountId} ${route.id}`;
    const wait = calls.retryAfterMs(key);
    if (wait > 0) throw throttledError(wait);
    calls.fail(key);
  };
}
