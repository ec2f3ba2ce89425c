import { FIREWALL_URL_MAX, LIST_KIND_LABELS, type ProtectionMode, protectionModeLabel } from '@rampart/contract';
import { Form, type FormRule, Input, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../../app/toast';
import { NumberInput } from '../../../../forms/NumberInput';
import { currentLocale } from '../../../../i18n/i18n';

/** Literals of the URL hint, the same in every language. */
const URL_HINT = {
  form: 'scheme://host[:port]/path?query',
  all: '.*',
  host: 'www.example.com',
  regex: 'https?:\\/\\/www.example.com(.*)',
};

/** The URL pattern a rule covers, under the body's `name` for it. */
export function UrlField({ name, rules }: { name: string; rules: FormRule[] }) {
  const { t } = useTranslation('firewall');
  return (
    <Form.Item name={name} label={t('url')} extra={t('form.urlHint', URL_HINT)} rules={rules} required>
      <Input placeholder={URL_HINT.all} maxLength={FIREWALL_URL_MAX} spellCheck={false} />
    </Form.Item>
  );
}

/**
 * The protection mode, one of the kind's `modes` (challenges and actions); `hint` says what each does
 * (DENY's status differs by kind). `name` and `label` for a second mode field (anti-CC's error action).
 */
export function BlockTypeField({
  modes,
  rules,
  hint,
  name = 'blockType',
  label,
}: {
  modes: readonly ProtectionMode[];
  rules: FormRule[];
  hint?: string;
  name?: string;
  label?: string;
}) {
  const { t } = useTranslation('firewall');
  const title = label ?? t('blockType');
  return (
    <Form.Item name={name} label={title} extra={hint ?? t('form.blockTypeHint')} rules={rules}>
      <Select
        aria-label={title}
        options={modes.map((value) => ({ value, label: protectionModeLabel(value, currentLocale()) }))}
      />
    </Form.Item>
  );
}

export function MemoField({ rules }: { rules: FormRule[] }) {
  const { t } = useTranslation('firewall');
  return (
    <Form.Item name="memo" label={t('memo')} rules={rules}>
      <Input />
    </Form.Item>
  );
}

/** Whether the rule is applied; a rule turned off is kept. */
export function EnabledField() {
  const { t } = useTranslation('firewall');
  return (
    <Form.Item name="enabled" label={t('enabled')} extra={t('form.enabledHint')} valuePropName="checked">
      <Switch aria-label={t('enabled')} />
    </Form.Item>
  );
}

interface NumberFieldProps {
  name: string;
  label: string;
  /** The unit after the number ("s", "requests"), if it has one. */
  unit?: string;
  hint: string;
  rules: FormRule[];
  /** The field may be left empty (a connection limit's rate). */
  optional?: boolean;
}

/**
 * A whole number with its unit. No min or max on the input: it would hold back what was typed out
 * of range and change it on leaving the field, where the contract's rules say what is wrong.
 */
export function NumberField({ name, label, unit, hint, rules, optional = false }: NumberFieldProps) {
  return (
    <Form.Item name={name} label={label} extra={hint} rules={rules} required={!optional}>
      <NumberInput suffix={unit} style={{ width: 220 }} />
    </Form.Item>
  );
}

/** Black (the listed regions are stopped) or white (only they pass), with what it means for the kind. */
export function ListKindField({ rules, hint }: { rules: FormRule[]; hint: string }) {
  const { t } = useTranslation('firewall');
  return (
    <Form.Item name="isBlack" label={t('listKind')} extra={hint} rules={rules}>
      <Radio.Group
        optionType="button"
        options={[
          { value: true, label: localized(LIST_KIND_LABELS.black) },
          { value: false, label: localized(LIST_KIND_LABELS.white) },
        ]}
      />
    </Form.Item>
  );
}
