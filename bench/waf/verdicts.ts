// bench:waf's verdicts (../shared/waf-corpus/README.md "How to judge"): one answer judged, and the
// rates (true and false positive rates, balanced accuracy) of a replay, in all, by set and by category.
import type { Case } from './corpus.js';
import { type Answer, ORIGIN_HEADER } from './wire.js';

export const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

export type Verdict = 'blocked' | 'challenged' | 'passed' | 'error';

export interface Judged {
  c: Case;
  verdict: Verdict;
  /** For errors: what went wrong (status:<n>, status:<block>-origin-reached, timeout, reset...). */
  kind?: string;
}

export interface TargetRules {
  blockStatus: number;
  /** Recognises a challenge page (none for ModSecurity; the edge's marker for rampart_waf). */
  challengeMarker?: (a: Answer) => boolean;
}

export function judge(
  a: Answer,
  originReceived: boolean,
  nonce: string | undefined,
  rules: TargetRules,
): [Verdict, string?] {
  if (a.failure && a.status === 0) return ['error', a.failure];
  if (!originReceived) {
    if (a.status === rules.blockStatus) return ['blocked'];
    if (rules.challengeMarker?.(a)) return ['challenged'];
    return ['error', `status:${a.status}`];
  }
  const fromOrigin = a.status === 200 && a.headers.get(ORIGIN_HEADER) === (nonce ?? '-');
  if (fromOrigin && !a.failure) return ['passed'];
  if (a.status === rules.blockStatus) return ['error', `status:${a.status}-origin-reached`];
  return ['error', a.failure ?? `status:${a.status}-origin-reached`];
}

interface Counts {
  attack: Record<Verdict, number>;
  benign: Record<Verdict, number>;
}

const zero = (): Record<Verdict, number> => ({ blocked: 0, challenged: 0, passed: 0, error: 0 });

function rates(counts: Counts) {
  const { attack, benign } = counts;
  const attackJudged = attack.blocked + attack.challenged + attack.passed;
  const benignJudged = benign.blocked + benign.challenged + benign.passed;
  const tpr = attackJudged > 0 ? (attack.blocked + attack.challenged) / attackJudged : null;
  const fpr = benignJudged > 0 ? (benign.blocked + benign.challenged) / benignJudged : null;
  return {
    tpr: tpr === null ? null : round(tpr),
    fpr: fpr === null ? null : round(fpr),
    errors: attack.error + benign.error,
    balanced_accuracy: tpr === null || fpr === null ? null : round((tpr + 1 - fpr) / 2),
    blocked: attack.blocked + benign.blocked,
    passed: attack.passed + benign.passed,
    challenged: attack.challenged + benign.challenged,
    attacks: { ...attack },
    benign: { ...benign },
  };
}

export const headline = (r: ReturnType<typeof rates>) => ({
  tpr: r.tpr,
  fpr: r.fpr,
  errors: r.errors,
  balanced_accuracy: r.balanced_accuracy,
  blocked: r.blocked,
  passed: r.passed,
});

export function summarise(judged: Judged[]) {
  const total: Counts = { attack: zero(), benign: zero() };
  const bySet = new Map<string, Counts>();
  const byCategory = new Map<string, Counts>();
  const errorKinds: Record<string, number> = {};
  for (const j of judged) {
    const label = j.c.label === 'attack' ? 'attack' : 'benign';
    total[label][j.verdict]++;
    for (const [map, key] of [
      [bySet, j.c.set],
      [byCategory, j.c.category],
    ] as const) {
      const counts = map.get(key) ?? { attack: zero(), benign: zero() };
      counts[label][j.verdict]++;
      map.set(key, counts);
    }
    if (j.verdict === 'error') errorKinds[j.kind ?? '?'] = (errorKinds[j.kind ?? '?'] ?? 0) + 1;
  }
  const breakdown = (map: Map<string, Counts>) =>
    Object.fromEntries(
      [...map.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => {
          const r = rates(v);
          return [k, { tpr: r.tpr, fpr: r.fpr, errors: r.errors, blocked: r.blocked, passed: r.passed }];
        }),
    );
  return {
    ...rates(total),
    error_kinds: errorKinds,
    by_set: breakdown(bySet),
    by_category: breakdown(byCategory),
  };
}
