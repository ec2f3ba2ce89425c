import { Flex, Typography } from 'antd';
import type { z } from 'zod';
import { currentLocale } from '../i18n/i18n';
import { NumberInput } from './NumberInput';
import { issueKey, validationText } from './validation-text';

/** Why the contract's schema of a filter refuses `value` (none given: nothing), in the reader's language. */
export function numberRefusal(schema: z.ZodType, value: number | undefined): string | null {
  if (value === undefined) return null;
  const result = schema.safeParse(value);
  const issue = result.success ? undefined : result.error.issues[0];
  if (!issue) return null;
  const { key, params } = issueKey(issue, value);
  return validationText(key, currentLocale(), params);
}

/**
 * A number box of a search row (a status, a rule, an id: no form around it). It keeps what was
 * typed, as every number box of the console does, and names under itself why the filter's schema
 * refuses it; the row does not search while one is refused (`numberRefusal`).
 */
export function FilterNumber({
  schema,
  label,
  width,
  value,
  onChange,
  onPressEnter,
}: {
  schema: z.ZodType;
  label: string;
  width: number;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  onPressEnter: () => void;
}) {
  const refusal = numberRefusal(schema, value);
  return (
    <Flex vertical>
      <NumberInput
        style={{ width }}
        aria-label={label}
        aria-invalid={refusal !== null}
        placeholder={label}
        status={refusal === null ? undefined : 'error'}
        value={value ?? null}
        onChange={(typed) => onChange(typed === null ? undefined : Number(typed))}
        onPressEnter={onPressEnter}
      />
      {refusal !== null && (
        <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: width }}>
          {refusal}
        </Typography.Text>
      )}
    </Flex>
  );
}
