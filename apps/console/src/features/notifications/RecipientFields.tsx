import { type AlertKind, customerNotifySchema, LOCALES } from '@rampart/contract';
import { Checkbox, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { entryListRules } from '../../forms/line-rules';
import { i18n } from '../../i18n/i18n';

/**
 * The addresses: every bad one named with its place before the save (the contract's list, the
 * same for the operator's and the customer's setting).
 */
const emailsRules = entryListRules(customerNotifySchema.shape.emails, (position, value, message) =>
  i18n.t('notifications:recipients.emailError', { position, value, message }),
);

/**
 * The fields the operator's and the customer's notification settings share: which kinds, which
 * addresses, the language of the alerts. Each form adds its own fields.
 */
export function RecipientFields({ kinds }: { kinds: readonly AlertKind[] }) {
  const { t } = useTranslation('notifications');
  return (
    <>
      <Form.Item name="kinds" label={t('recipients.kinds')}>
        <Checkbox.Group options={kinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
      </Form.Item>
      <Form.Item name="emails" label={t('recipients.emails')} extra={t('recipients.emailsHint')} rules={emailsRules}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} aria-label={t('recipients.emails')} />
      </Form.Item>
      <Form.Item name="language" label={t('recipients.language')}>
        <Select style={{ width: 200 }} options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
      </Form.Item>
    </>
  );
}
