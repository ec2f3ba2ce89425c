import {
  ABUSE_IP_BLOCK_TYPES,
  ABUSE_IP_SCORE_MAX,
  ABUSE_IP_SCORE_MIN,
  type AbuseIPSettingInput,
  abuseIPSettingInputSchema,
  firewallReputationRoutes,
  type ProtectionMode,
  protectionModeLabel,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../../app/account-context';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { ListEmpty } from '../../../../components/ListEmpty';
import { NumberInput } from '../../../../forms/NumberInput';
import { schemaRules } from '../../../../forms/zod-rules';
import { BlockTypeField } from './FirewallFields';

type Values = Required<AbuseIPSettingInput>;
const FIELDS = ['enabled', 'threshold', 'blockType'] as const;
const rules = schemaRules(abuseIPSettingInputSchema);

/**
 * The site's IP trust protection (`user/site/{siteId}/firewall/setting/abuseIP`): on or off, the
 * score from which a client of the operator's reputation list is caught, and the protection mode it
 * gets (the challenges the edge serves, DENY, DROP, DROP + Blacklist, labelled as every kind's).
 */
export function AbuseIPPanel({ siteId }: { siteId: number }) {
  const { t } = useTranslation('firewall');
  const canWrite = useCan('user.firewall.write');
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('enabled', form) ?? false;
  const setting = useQuery(routeQuery('user', firewallReputationRoutes.getAbuseIPSetting, { params: { siteId } }));
  const current = setting.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue({ ...current, blockType: current.blockType as Values['blockType'] });
  }, [current, form]);
  // A stored value the form no longer offers (a legacy challenge) still shows, with its label.
  const stored = current?.blockType;
  const modes: readonly ProtectionMode[] =
    stored !== undefined &&
    !(ABUSE_IP_BLOCK_TYPES as readonly number[]).includes(stored) &&
    protectionModeLabel(stored, 'en_US') !== null
      ? [...ABUSE_IP_BLOCK_TYPES, stored as ProtectionMode]
      : ABUSE_IP_BLOCK_TYPES;
  const save = useRouteMutation('user', firewallReputationRoutes.updateAbuseIPSetting, {
    input: (values: Values) => ({ params: { siteId }, body: values }),
    invalidates: changes('abuseIPSetting'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: FIELDS },
  });

  return (
    <>
      <Typography.Paragraph type="secondary">{t('hints.abuseIP')}</Typography.Paragraph>
      <Card loading={setting.isLoading} style={{ maxWidth: 720 }}>
        {setting.isError ? (
          <ListEmpty text="" failed onRetry={() => setting.refetch()} />
        ) : (
          <Form<Values> form={form} layout="vertical" disabled={!canWrite} onFinish={(values) => save.mutate(values)}>
            <Form.Item name="enabled" label={t('abuseIP.enabled')} valuePropName="checked">
              <Switch aria-label={t('abuseIP.enabled')} />
            </Form.Item>
            <Form.Item
              name="threshold"
              label={t('abuseIP.threshold')}
              extra={t('abuseIP.thresholdHint', { min: ABUSE_IP_SCORE_MIN, max: ABUSE_IP_SCORE_MAX })}
              rules={rules('threshold')}
              required
            >
              <NumberInput style={{ width: 160 }} disabled={!enabled || !canWrite} />
            </Form.Item>
            <BlockTypeField modes={modes} rules={rules('blockType')} />
            {canWrite && (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('abuseIP.save')}
              </Button>
            )}
          </Form>
        )}
      </Card>
    </>
  );
}
