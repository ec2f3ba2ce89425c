import {
  CHALLENGE_PASS_SECONDS,
  challengeKeyIds,
  EDGE_CHALLENGES,
  type EdgeChallenge,
  type EdgeFirewall,
} from '@rampart/contract';
import { deriveKey } from '../../platform/crypto/keys.js';

/**
 * The keys that sign the challenge passes of an operator's sites (edge/challenge.ts): one per
 * period, derived from the installation secret, the operator and the period, so nothing is stored,
 * every control-plane process derives the same keys, and no operator's nodes can sign passes for
 * another operator's sites. A node gets the previous, the current and the next period's key.
 */
export function edgeChallengeKeys(secret: string, ownerId: number, now: Date): EdgeChallenge {
  return {
    keys: challengeKeyIds(now).map((id) => ({
      id,
      secret: deriveKey(secret, `challenge-pass:${ownerId}:${id}`).toString('hex'),
    })),
    passSeconds: CHALLENGE_PASS_SECONDS,
  };
}

const CHALLENGES: ReadonlySet<string> = new Set(EDGE_CHALLENGES);

/** Whether any rule of these firewalls challenges (then the node needs the keys). */
export function firewallsChallenge(firewalls: readonly EdgeFirewall[]): boolean {
  return firewalls.some(
    (f) =>
      f.antiCC.length > 0 ||
      f.blacklist.some((r) => CHALLENGES.has(r.action)) ||
      f.userAgents.some((r) => CHALLENGES.has(r.action)) ||
      (f.reputation !== undefined && CHALLENGES.has(f.reputation.action)),
  );
}
