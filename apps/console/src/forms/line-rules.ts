import { numberedLines } from '@rampart/contract';
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { currentLocale } from '../i18n/i18n';
import { issueKey, validationText } from './validation-text';

/**
 * Rules for a text box of one entry per line (domain names, URLs): at least one line, at most
 * `max`, each line checked with the contract's schema of one entry. The first bad line is reported
 * through `lineText(line, message)` so the user sees which one.
 */
export function lineListRules(
  item: z.ZodType,
  max: number,
  lineText: (line: number, message: string) => string,
): FormRule[] {
  return [
    {
      validator: async (_rule, text: string | undefined) => {
        const lines = numberedLines(text ?? '');
        const locale = currentLocale();
        if (lines.length === 0) throw new Error(validationText('required', locale));
        if (lines.length > max) throw new Error(validationText('tooMany', locale, { max }));
        for (const { line, value } of lines) {
          const result = await item.safeParseAsync(value);
          const issue = result.success ? undefined : result.error.issues[0];
          if (!issue) continue;
          const { key, params } = issueKey(issue, value);
          throw new Error(lineText(line, validationText(key, locale, params)));
        }
      },
    },
  ];
}

/** The entries of such a text box, trimmed, empty lines left out. */
export function lineValues(text: string | undefined): string[] {
  return numberedLines(text ?? '').map(({ value }) => value);
}
