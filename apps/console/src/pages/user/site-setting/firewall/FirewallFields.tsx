import { FIREWALL_ACTION_LABELS, FIREWALL_URL_MAX, type FirewallAction } from '@rampart/contract';
import { Form, type FormRule, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../../app/toast';

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

/** The protection mode, one of the kind's `modes`. */
export function BlockTypeField({ modes, rules }: { modes: readonly FirewallAction[]; rules: FormRule[] }) {
  const { t } = useTranslation('firewall');
  return (
    <Form.Item name="blockType" label={t('blockType')} extra={t('form.blockTypeHint')} rules={rules}>
      <Select
        aria-label={t('blockType')}
        options={modes.map((value) => ({ value, label: localized(FIREWALL_ACTION_LABELS[value]) }))}
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
