import { LICENSE_KINDS, type LicenseKind, type LicenseSetting, licenseSettingSchema } from '@rampart/contract';
import { Form, Input, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/DateTime';
import { NumberInput } from '../../../forms/NumberInput';
import { valueRules } from '../../../forms/zod-rules';

/** A licence's settings as its form holds them: the counts, and the expiry day as `YYYY-MM-DD` (UTC). */
export type LicenseSettingValues = Record<LicenseKind, number> & { expiredAt: string };

const DAY_MS = 86_400_000;

export function licenseSettingValues(setting?: LicenseSetting): LicenseSettingValues {
  const counts = Object.fromEntries(LICENSE_KINDS.map((kind) => [kind, setting ? setting[kind] : 10]));
  return {
    ...(counts as Record<LicenseKind, number>),
    expiredAt: (setting ? new Date(setting.expiredAt) : new Date(Date.now() + 365 * DAY_MS)).toISOString().slice(0, 10),
  };
}

/** The body's `licenseSetting`: the expiry is the end of the chosen day (UTC). */
export function licenseSettingOf(values: LicenseSettingValues): LicenseSetting {
  const counts = Object.fromEntries(LICENSE_KINDS.map((kind) => [kind, values[kind]]));
  return { ...(counts as Record<LicenseKind, number>), expiredAt: `${values.expiredAt}T23:59:59.999Z` };
}

/** The form items of a licence's settings: one count per kind, and the expiry. */
export function LicenseSettingFields() {
  const { t } = useTranslation('licenses');
  const required = [{ required: true, message: t('required') }];
  return (
    <>
      <Space wrap size="middle">
        {LICENSE_KINDS.map((kind) => (
          <Form.Item
            key={kind}
            name={kind}
            label={t(`kinds.${kind}`)}
            rules={[...required, ...valueRules(licenseSettingSchema.shape[kind])]}
          >
            <NumberInput style={{ width: 140 }} />
          </Form.Item>
        ))}
      </Space>
      <Form.Item name="expiredAt" label={t('expiredAt')} rules={required}>
        <Input type="date" style={{ width: 200 }} />
      </Form.Item>
    </>
  );
}

/** A licence's limits in a list cell: one tag per kind. */
export function LicenseLimits({ setting }: { setting: LicenseSetting }) {
  const { t } = useTranslation('licenses');
  return (
    <Space size={[0, 4]} wrap>
      {LICENSE_KINDS.map((kind) => (
        <Tag key={kind}>
          {t(`kinds.${kind}`)}: {setting[kind]}
        </Tag>
      ))}
    </Space>
  );
}

export function LicenseExpiry({ setting }: { setting: LicenseSetting }) {
  return <DateTime value={setting.expiredAt} />;
}
