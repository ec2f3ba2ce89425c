/**
 * `npx tsx bench/console-lists.ts`: what checking a list box of the documented maximum costs the
 * console, measured on the console's own rules in Node (the same code the browser runs, without
 * the page). Prints one JSON object:
 *
 *   {"entries", "runs", "blacklist_valid_ms", "blacklist_all_bad_ms", "blacklist_half_repeated_ms",
 *    "blacklist_form_submit_ms", "blacklist_1000_ms", "domains_max_ms", "domains_max_entries",
 *    "abuse_import_max_ms", "abuse_import_all_bad_ms", "abuse_import_rows"}
 *
 * - blacklist_*: the IPs box's rule (ipsRules, the whitelist's, blacklist's and layer-4 lists'
 *   mechanism) on MAX_IPS (5,000) lines: all good (IPv4, IPv6, CIDR and ranges mixed), all
 *   malformed (every line reported), and half of them repeats of the other half.
 * - blacklist_form_submit_ms: what sending the blacklist's form checks besides the box: the rules of
 *   its four other fields (URL, methods, memo, mode), each validating the whole body from the
 *   contract, with the 5,000 addresses in it (one parse serves the four while nothing changed).
 * - blacklist_1000_ms: the good list cut to 1,000 lines, to read the growth (linear: about a fifth).
 * - domains_max_ms: the domain names box's rule (lineListRules) on DOMAINS_PER_REQUEST_MAX names.
 * - abuse_import_max_ms / abuse_import_all_bad_ms: the reputation list's import box (the console's
 *   biggest: ABUSE_IP_IMPORT_ROWS_MAX rows, CSV and plain lines mixed), all good and all malformed.
 *
 * Each figure is the median of BENCH_RUNS runs (default 7) after one warm-up. The box's rule runs
 * when the box loses focus and when the form is sent, never at each key (LIST_VALIDATE_TRIGGER).
 */
import {
  ABUSE_IP_IMPORT_ROWS_MAX,
  blacklistRuleInputSchema,
  DOMAINS_PER_REQUEST_MAX,
  MAX_IPS,
} from '@rampart/contract';
import type { FormInstance, FormRule } from 'antd';
import { importTextRules } from '../apps/console/src/pages/client/settings/abuse-import-rules.js';
import { namesRules } from '../apps/console/src/pages/user/site-setting/domains/domain-form.js';
import { firewallRuleRules } from '../apps/console/src/pages/user/site-setting/firewall/firewall-rule-form.js';
import {
  blacklistRuleBody,
  ipsRules,
  type ListRuleValues,
} from '../apps/console/src/pages/user/site-setting/firewall/list-rule-form.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const round = (n: number) => Math.round(n * 10) / 10;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

type Validator = (rule: unknown, value: unknown) => Promise<void> | void;

/** The validator of an antd rule given as an object (the list boxes' rules are). */
function validatorOf(rule: FormRule | undefined): Validator {
  if (!rule || typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
  return rule.validator as Validator;
}

/** Milliseconds one check takes (resolved or refused: a refusal is a result here), median of RUNS. */
async function timed(name: string, check: () => Promise<unknown> | unknown): Promise<number> {
  const once = async () => {
    const start = performance.now();
    try {
      await check();
    } catch {
      // a refused list: what it costs to say so is what is measured
    }
    return performance.now() - start;
  };
  await once();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await once());
  const ms = median(times);
  log(`${name}: ${round(ms)} ms`);
  return round(ms);
}

function address(i: number): string {
  const [a, b] = [(i >> 8) & 255, i & 255];
  switch (i % 4) {
    case 0:
      return `10.${a}.${b}.1`;
    case 1:
      return `2001:db8:${i.toString(16)}::1`;
    case 2:
      return `172.16.${a}.${b}/32`;
    default:
      return `192.0.${a}.${b}-192.0.${a}.${b}`;
  }
}

const good = Array.from({ length: MAX_IPS }, (_, i) => address(i));
const bad = Array.from({ length: MAX_IPS }, (_, i) => `10.0.${i}.300`);
const half = good.slice(0, MAX_IPS / 2);
const repeated = [...half, ...half];
const ips = validatorOf(ipsRules()[0]);

// Asserted, so a figure never comes from a check that did not run as described.
const refusal = async (text: string) =>
  Promise.resolve(ips(undefined, text)).then(
    () => [] as Error[],
    (errors: Error[]) => errors,
  );
if ((await refusal(good.join('\n'))).length !== 0) throw new Error('the good list was refused');
if ((await refusal(bad.join('\n'))).length === 0) throw new Error('the bad list was accepted');

const values: ListRuleValues = {
  ips: good.join('\n'),
  url: '/wp-login.php',
  methods: ['get', 'post'],
  memo: 'bench',
  blockType: 10 as ListRuleValues['blockType'],
};
const form = { getFieldsValue: () => values } as unknown as FormInstance;
const fieldRules = firewallRuleRules({ body: blacklistRuleBody, schema: blacklistRuleInputSchema });
const others = ['url', 'methods', 'memo', 'blockType'].map((field) => {
  const rule = fieldRules(field)[0];
  if (typeof rule !== 'function') throw new Error('not a form rule');
  return validatorOf(rule(form));
});

let submits = 0;
const domains = Array.from({ length: DOMAINS_PER_REQUEST_MAX }, (_, i) => `site-${i}.example.com`).join('\n');
const names = validatorOf(namesRules[0]);

// The import box's rule reads the form's default score: a form that has none (the rule's fallback).
const importRule = importTextRules[0];
if (typeof importRule !== 'function') throw new Error('not a form rule');
const importText = validatorOf(importRule({ getFieldValue: () => undefined } as unknown as FormInstance));
const feed = Array.from({ length: ABUSE_IP_IMPORT_ROWS_MAX }, (_, i) => {
  const [a, b, c] = [(i >> 16) & 255, (i >> 8) & 255, i & 255];
  return i % 2 === 0 ? `10.${a}.${b}.${c},${(i % 100) + 1},feed` : `2001:db8:${a}:${b}::${c.toString(16)}`;
}).join('\n');
const feedBad = Array.from({ length: ABUSE_IP_IMPORT_ROWS_MAX }, (_, i) => `10.0.${i}.300`).join('\n');
const importRefusal = (text: string) =>
  Promise.resolve(importText(undefined, text)).then(
    () => [] as Error[],
    (errors: Error[]) => errors,
  );
if ((await importRefusal(feed)).length !== 0) throw new Error('the good feed was refused');
if ((await importRefusal(feedBad)).length === 0) throw new Error('the bad feed was accepted');

const result = {
  entries: MAX_IPS,
  runs: RUNS,
  blacklist_valid_ms: await timed('blacklist, 5000 good lines', () => ips(undefined, good.join('\n'))),
  blacklist_all_bad_ms: await timed('blacklist, 5000 bad lines', () => ips(undefined, bad.join('\n'))),
  blacklist_half_repeated_ms: await timed('blacklist, 2500 repeated', () => ips(undefined, repeated.join('\n'))),
  blacklist_form_submit_ms: await timed('blacklist form, the other fields', async () => {
    // Another memo each run, as each submit follows an edit: the body is parsed anew, once.
    values.memo = `bench ${++submits}`;
    await Promise.all(others.map((validator) => validator(undefined, undefined)));
  }),
  blacklist_1000_ms: await timed('blacklist, 1000 good lines', () => ips(undefined, good.slice(0, 1000).join('\n'))),
  domains_max_ms: await timed('domain names, the most', () => names(undefined, domains)),
  domains_max_entries: DOMAINS_PER_REQUEST_MAX,
  abuse_import_max_ms: await timed('reputation import, the most rows', () => importText(undefined, feed)),
  abuse_import_all_bad_ms: await timed('reputation import, every row bad', () => importText(undefined, feedBad)),
  abuse_import_rows: ABUSE_IP_IMPORT_ROWS_MAX,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
