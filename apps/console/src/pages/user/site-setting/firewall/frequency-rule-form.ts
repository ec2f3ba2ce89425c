import {
  FIREWALL_ACTIONS,
  type FREQUENCY_BLOCK_TYPES,
  type IntervalLimit,
  type IntervalLimitInput,
  type SecondLimit,
  type SecondLimitInput,
} from '@rampart/contract';
import { ruleFieldOf } from './firewall-rule-form';

/** What both frequency limits' forms have. The numbers are null while their box is empty. */
interface FrequencyLimitValues {
  urlRegex: string;
  priority: number | null;
  blockType: (typeof FREQUENCY_BLOCK_TYPES)[number];
  enabled: boolean;
  memo: string;
}

/** An interval limit's form: the body's fields as they are. */
export interface IntervalLimitValues extends FrequencyLimitValues {
  seconds: number | null;
  times: number | null;
}

/** A per-second limit's form: the body's fields as they are. */
export interface SecondLimitValues extends FrequencyLimitValues {
  rate: number | null;
  burst: number | null;
  blockSeconds: number | null;
}

const NEW_FREQUENCY_LIMIT: FrequencyLimitValues = {
  urlRegex: '',
  priority: 0,
  blockType: FIREWALL_ACTIONS.deny,
  enabled: true,
  memo: '',
};

/** A new interval limit: the window and the count to be typed; priority 0, DENY, on. */
export const NEW_INTERVAL_LIMIT: IntervalLimitValues = { ...NEW_FREQUENCY_LIMIT, seconds: null, times: null };

/** A new per-second limit: the rate to be typed; no burst, no block beyond the requests over it, priority 0, DENY, on. */
export const NEW_SECOND_LIMIT: SecondLimitValues = { ...NEW_FREQUENCY_LIMIT, rate: null, burst: 0, blockSeconds: 0 };

function frequencyLimitValues(rule: IntervalLimit | SecondLimit): FrequencyLimitValues {
  return {
    urlRegex: rule.urlRegex,
    priority: rule.priority,
    // A stored rule holds one of the modes the contract accepts.
    blockType: rule.blockType as FrequencyLimitValues['blockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/** A listed rule's fields as a body takes them (the switch in its row sends them back with `enabled` changed). */
export function intervalLimitValues(rule: IntervalLimit): IntervalLimitValues {
  return { ...frequencyLimitValues(rule), seconds: rule.seconds, times: rule.times };
}

export function secondLimitValues(rule: SecondLimit): SecondLimitValues {
  return { ...frequencyLimitValues(rule), rate: rule.rate, burst: rule.burst, blockSeconds: rule.blockSeconds };
}

/**
 * A number box's value as the body takes it: an empty box is NaN, which the contract's schema
 * refuses as a missing number (the form never sends it).
 */
export function wholeNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number.NaN;
}

function frequencyLimitBody(values: FrequencyLimitValues) {
  return {
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    priority: wholeNumber(values.priority),
    blockType: values.blockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

/** The body of an interval limit: the URL pattern trimmed as the other kinds', every default named. */
export function intervalLimitBody(values: IntervalLimitValues): IntervalLimitInput {
  return { ...frequencyLimitBody(values), seconds: wholeNumber(values.seconds), times: wholeNumber(values.times) };
}

/** The body of a per-second limit: the URL pattern trimmed, every default named. */
export function secondLimitBody(values: SecondLimitValues): SecondLimitInput {
  return {
    ...frequencyLimitBody(values),
    rate: wholeNumber(values.rate),
    burst: wholeNumber(values.burst),
    blockSeconds: wholeNumber(values.blockSeconds),
  };
}

const FREQUENCY_FIELDS = ['urlRegex', 'priority', 'blockType', 'enabled', 'memo'] as const;
export const intervalLimitFieldOf = ruleFieldOf([...FREQUENCY_FIELDS, 'seconds', 'times']);
export const secondLimitFieldOf = ruleFieldOf([...FREQUENCY_FIELDS, 'rate', 'burst', 'blockSeconds']);
