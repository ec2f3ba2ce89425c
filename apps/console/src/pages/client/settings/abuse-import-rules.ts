import { ABUSE_IP_IMPORT_ROWS_MAX, ABUSE_IP_SCORE_MAX, parseAbuseIPImport } from '@rampart/contract';
import type { FormRule } from 'antd';
import { LIST_VALIDATE_TRIGGER } from '../../../forms/line-rules';
import { validationText } from '../../../forms/validation-text';
import { currentLocale } from '../../../i18n/i18n';

/**
 * The import box's rule: the text read by the contract's own parser (parseAbuseIPImport, the one
 * the server runs), every bad or repeated row named with its line under the box before anything is
 * sent: the first rows the parser words, then how many more; too many rows is one error. The plain
 * lines' score is the form's `defaultScore`. Checked on blur and on submit, not at each key.
 */
export const importTextRules: FormRule[] = [
  (form) => ({
    validateTrigger: LIST_VALIDATE_TRIGGER,
    validator: (_rule, text: unknown) => {
      if (typeof text !== 'string' || text === '') return Promise.resolve();
      const score = form.getFieldValue('defaultScore');
      const parsed = parseAbuseIPImport(text, typeof score === 'number' ? score : ABUSE_IP_SCORE_MAX);
      if (parsed.ok) return Promise.resolve();
      const locale = currentLocale();
      if (parsed.tooMany !== undefined) {
        const count = parsed.tooMany;
        return Promise.reject(
          new Error(validationText('abuseIPImportRows', locale, { max: ABUSE_IP_IMPORT_ROWS_MAX, count })),
        );
      }
      const messages = parsed.errors.map((error) => validationText(error.key, locale, error.params));
      if (parsed.more > 0) messages.push(validationText('abuseIPImportMore', locale, { count: parsed.more }));
      return Promise.reject(messages.map((message) => new Error(message)));
    },
  }),
];
