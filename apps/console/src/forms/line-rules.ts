import { numberedLines } from '@rampart/contract';
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { currentLocale } from '../i18n/i18n';
import { issueKey, validationText } from './validation-text';

/** The most bad lines a list box lists under itself; one more line counts the others. */
export const BAD_LINES_SHOWN = 20;

/**
 * When a list box is checked: when it loses focus and when its form is sent, not at each key.
 * A list of the most entries (5,000 addresses) costs tens of milliseconds to check; at each
 * keystroke, with the form's other fields re-checking the whole body, that froze the page.
 */
export const LIST_VALIDATE_TRIGGER = 'onBlur';

/**
 * Settles a list box's rule: resolved when there are no `problems`, else rejected with one error
 * per bad line (antd shows each on its own line under the field), the first BAD_LINES_SHOWN of them
 * worded by `text` and then how many more, so a person sees every line to fix rather than only the
 * first. Only the lines shown are worded: a pasted list of 5,000 bad lines costs no 5,000 texts.
 */
export function refuseLines<P>(problems: readonly P[], text: (problem: P) => string): Promise<void> {
  if (problems.length === 0) return Promise.resolve();
  const shown = problems.slice(0, BAD_LINES_SHOWN).map(text);
  if (problems.length > BAD_LINES_SHOWN) {
    shown.push(validationText('moreBadLines', currentLocale(), { count: problems.length - BAD_LINES_SHOWN }));
  }
  return Promise.reject(shown.map((message) => new Error(message)));
}

/**
 * Rules for a text box of one entry per line (domain names, URLs): at least one line, at most
 * `max`, each line checked with the contract's schema of one entry. Every bad line is reported
 * through `lineText(line, message)` so the user sees which ones; checked on blur and on submit.
 * With `repeated`, a line whose entry, as the schema reads it (the form the server compares), is
 * an earlier line's is named too, through `repeated(line, value, first)`.
 */
export function lineListRules(
  item: z.ZodType,
  max: number,
  lineText: (line: number, message: string) => string,
  repeated?: (line: number, value: string, first: number) => string,
): FormRule[] {
  return [
    {
      validateTrigger: LIST_VALIDATE_TRIGGER,
      validator: (_rule, text: string | undefined) => {
        const lines = numberedLines(text ?? '');
        const locale = currentLocale();
        if (lines.length === 0) return Promise.reject(new Error(validationText('required', locale)));
        if (lines.length > max) return Promise.reject(new Error(validationText('tooMany', locale, { max })));
        const problems: LineProblem[] = [];
        const firstLineOf = new Map<unknown, number>();
        for (const { line, value } of lines) {
          const result = item.safeParse(value);
          if (!result.success) {
            const issue = result.error.issues[0];
            if (issue) problems.push({ line, value, issue });
            continue;
          }
          const first = firstLineOf.get(result.data);
          if (first === undefined) firstLineOf.set(result.data, line);
          else if (repeated) problems.push({ line, value, first });
        }
        return refuseLines(problems, (problem) => {
          if ('first' in problem) return repeated?.(problem.line, problem.value, problem.first) ?? '';
          const { key, params } = issueKey(problem.issue, problem.value);
          return lineText(problem.line, validationText(key, locale, params));
        });
      },
    },
  ];
}

/** A bad line of a list box: its entry refused by the schema, or the same entry as an earlier line. */
type LineProblem =
  | { line: number; value: string; issue: z.core.$ZodIssue }
  | { line: number; value: string; first: number };

/**
 * Rules for a text box whose lines make one list the contract checks whole (`list`: an array
 * schema whose issues name the entry's index, as the IP lists' duplicates and formats do). Every
 * bad line is reported through `lineText(line, value, message)`; an empty box is a valid empty
 * list. A problem of the whole list (too many entries) is one error.
 */
export function listSchemaRules(
  list: z.ZodType,
  lineText: (line: number, value: string, message: string) => string,
): FormRule[] {
  return [
    {
      validateTrigger: LIST_VALIDATE_TRIGGER,
      validator: (_rule, text: string | undefined) => refuseListIssues(list, numberedLines(text ?? ''), lineText),
    },
  ];
}

/**
 * Rules for a tags box (entries typed one by one into a `Select mode="tags"`) whose entries make
 * one list the contract checks whole: every bad or repeated entry named through
 * `entryText(position, value, message)` (1-based), a problem of the whole list as one error.
 */
export function entryListRules(
  list: z.ZodType,
  entryText: (position: number, value: string, message: string) => string,
): FormRule[] {
  return [
    {
      validator: (_rule, value: unknown) =>
        refuseEntries(list, Array.isArray(value) ? value.map((entry) => String(entry)) : [], entryText),
    },
  ];
}

/** A tags box's entries checked with `list`: every bad one named through `entryText(position, value, message)`. */
export function refuseEntries(
  list: z.ZodType,
  entries: readonly string[],
  entryText: (position: number, value: string, message: string) => string,
): Promise<void> {
  return refuseListIssues(
    list,
    entries.map((entry, i) => ({ line: i + 1, value: entry })),
    entryText,
  );
}

/** The list's entries checked with `list`; each entry's issues named through `text`, the list's own as one error. */
function refuseListIssues(
  list: z.ZodType,
  entries: readonly { line: number; value: string }[],
  text: (line: number, value: string, message: string) => string,
): Promise<void> {
  const result = list.safeParse(entries.map(({ value }) => value));
  if (result.success) return Promise.resolve();
  const locale = currentLocale();
  const worded = (issue: z.core.$ZodIssue, value: string) => {
    const { key, params } = issueKey(issue, value);
    return validationText(key, locale, params);
  };
  const whole = result.error.issues.find((issue) => typeof issue.path[0] !== 'number');
  if (whole) return Promise.reject(new Error(worded(whole, '')));
  const problems = result.error.issues.map((issue) => ({ issue, at: entries[issue.path[0] as number] }));
  return refuseLines(problems, ({ issue, at }) => text(at?.line ?? 0, at?.value ?? '', worded(issue, at?.value ?? '')));
}

/** The entries of such a text box, trimmed, empty lines left out. */
export function lineValues(text: string | undefined): string[] {
  return numberedLines(text ?? '').map(({ value }) => value);
}
