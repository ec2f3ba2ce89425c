import { type AlertKind, LOCALES } from '@rampart/contract';
import { Checkbox, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

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
      <Form.Item name="emails" label={t('recipients.emails')} extra={t('recipients.emailsHint')}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} aria-label={t('recipients.emails')} />
      </Form.Item>
      <Form.Item name="language" label={t('recipients.language')}>
        <Select style={{ width: 200 }} options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
      </Form.Item>
    </>
  );
}
