import {
  ESCALATION_DEFAULT,
  ESCALATION_REFUSALS_MAX,
  ESCALATION_REFUSALS_MIN,
  ESCALATION_SECONDS_MAX,
  L4_RATE_MAX,
  type ZoneL4Protection,
  type ZoneL4ProtectionInput,
  zoneL4ProtectionInputSchema,
  zoneL4ProtectionRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, type FormRule, Space, Spin, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ListEmpty } from '../../../components/ListEmpty';
import { NumberInput } from '../../../forms/NumberInput';
import { nestedFieldNames } from '../../../forms/server-errors';
import { useFieldValue } from '../../../forms/use-field-value';
import { issueKey, validationText } from '../../../forms/validation-text';
import { useLocale } from '../../../i18n';
import { currentLocale } from '../../../i18n/i18n';
import { formatCount } from '../../user/site-setting/firewall/FrequencyLimitCells';
import { wholeNumber } from '../../user/site-setting/firewall/frequency-rule-form';

const RATES = ['synFlood', 'newConnections'] as const;
type RateKey = (typeof RATES)[number];

/** A rate as the form holds it: on or off, the numbers kept while off (null while a box is empty). */
interface RateValues {
  on: boolean;
  rate: number | null;
  burst: number | null;
}
/** The escalation as the form holds it: on or off, the numbers kept while off. */
interface EscalationValues {
  on: boolean;
  refusals: number | null;
  seconds: number | null;
}
type Values = Record<RateKey, RateValues> & { kernelBlocks: boolean; escalation: EscalationValues };

function rateValues(rate: ZoneL4Protection['synFlood']): RateValues {
  return rate ? { on: true, rate: rate.rate, burst: rate.burst } : { on: false, rate: null, burst: 0 };
}

export function protectionValues(current: ZoneL4Protection): Values {
  return {
    synFlood: rateValues(current.synFlood),
    newConnections: rateValues(current.newConnections),
    kernelBlocks: current.kernelBlocks,
    escalation: { on: current.escalation !== null, ...(current.escalation ?? ESCALATION_DEFAULT) },
  };
}

/** The body: a rate that is off is null. */
export function protectionBody(values: Values): ZoneL4ProtectionInput {
  const rate = (value: RateValues | undefined) =>
    value?.on ? { rate: wholeNumber(value.rate), burst: wholeNumber(value.burst) } : null;
  return {
    synFlood: rate(values.synFlood),
    newConnections: rate(values.newConnections),
    kernelBlocks: values.kernelBlocks ?? false,
    escalation: values.escalation?.on
      ? { refusals: wholeNumber(values.escalation.refusals), seconds: wholeNumber(values.escalation.seconds) }
      : null,
  };
}

/** A number box checked with the contract's schema of the whole body: the issue at its own path. */
function numberRules(
  path: readonly [RateKey, 'rate' | 'burst'] | readonly ['escalation', 'refusals' | 'seconds'],
): FormRule[] {
  return [
    (form) => ({
      validator: async () => {
        const result = zoneL4ProtectionInputSchema.safeParse(protectionBody(form.getFieldsValue(true) as Values));
        const issue = result.error?.issues.find((found) => found.path.join('.') === path.join('.'));
        if (!issue) return;
        const value: unknown = form.getFieldValue([...path]);
        const { key, params } = issueKey(issue, value ?? '');
        throw new Error(validationText(key, currentLocale(), params));
      },
    }),
  ];
}

/**
 * The zone's layer-4 protection (routes/firewall-l4.ts; docs/decisions.md "Layer-4 protection in
 * the kernel"): TCP SYNs and new connections per source address, each off or a rate and burst,
 * whether the layer-7 firewall's DROP + Blacklist blocks go down to the nodes' kernel, and the
 * escalation of floods to the kernel (off, or refusals within seconds). Saved
 * as a whole; the zone's nodes take it with their next snapshot.
 */
export function ZoneL4ProtectionPanel({ zoneId }: { zoneId: number }) {
  const { t } = useTranslation(['zoneSettings']);
  const [locale] = useLocale();
  const params = { zoneID: zoneId };
  const protection = useQuery(routeQuery('client', zoneL4ProtectionRoutes.getZoneL4Protection, { params }));
  const [form] = Form.useForm<Values>();
  const current = protection.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue(protectionValues(current));
  }, [form, current]);
  const save = useRouteMutation('client', zoneL4ProtectionRoutes.setZoneL4Protection, {
    input: (body: ZoneL4ProtectionInput) => ({ params, body }),
    invalidates: changes('zoneL4Protection'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: nestedFieldNames([...RATES, 'kernelBlocks', 'escalation']) },
  });
  const max = formatCount(L4_RATE_MAX, locale);

  if (protection.isError) return <ListEmpty text="" failed onRetry={() => protection.refetch()} />;
  if (!current) return <Spin />;
  return (
    <Form
      form={form}
      layout="vertical"
      aria-label={t('l4.title')}
      style={{ maxWidth: 560 }}
      initialValues={protectionValues(current)}
      onFinish={() => save.mutate(protectionBody(form.getFieldsValue(true) as Values))}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('l4.intro')} />
      {RATES.map((key) => (
        <RateFields key={key} rate={key} max={max} />
      ))}
      <Form.Item
        name="kernelBlocks"
        label={t('l4.kernelBlocks')}
        extra={t('l4.kernelBlocksHelp')}
        valuePropName="checked"
      >
        <Switch aria-label={t('l4.kernelBlocks')} />
      </Form.Item>
      <EscalationFields />
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('l4.save')}
      </Button>
    </Form>
  );
}

/** One rate per source address: a switch, and its rate and burst while it is on. */
function RateFields({ rate, max }: { rate: RateKey; max: string }) {
  const { t } = useTranslation(['zoneSettings']);
  const on = useFieldValue<boolean>([rate, 'on']);
  const label = t(`l4.${rate}`);
  return (
    <>
      <Typography.Title level={5}>{label}</Typography.Title>
      <Form.Item name={[rate, 'on']} extra={t(`l4.${rate}Help`)} valuePropName="checked">
        <Switch aria-label={label} />
      </Form.Item>
      {on && (
        <Space align="start" wrap>
          <Form.Item
            name={[rate, 'rate']}
            label={t('l4.rate')}
            extra={t('l4.rateHelp', { max })}
            rules={numberRules([rate, 'rate'])}
            required
          >
            <NumberInput
              aria-label={t('l4.rateOf', { name: label })}
              suffix={t('l4.perSecond')}
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item
            name={[rate, 'burst']}
            label={t('l4.burst')}
            extra={t('l4.burstHelp', { max })}
            rules={numberRules([rate, 'burst'])}
          >
            <NumberInput aria-label={t('l4.burstOf', { name: label })} style={{ width: 200 }} />
          </Form.Item>
        </Space>
      )}
    </>
  );
}

/** The escalation of floods to the kernel: a switch, and its refusals and window while it is on. */
function EscalationFields() {
  const { t } = useTranslation(['zoneSettings']);
  const on = useFieldValue<boolean>(['escalation', 'on']);
  const label = t('l4.escalation');
  return (
    <>
      <Typography.Title level={5}>{label}</Typography.Title>
      <Form.Item name={['escalation', 'on']} extra={t('l4.escalationHelp')} valuePropName="checked">
        <Switch aria-label={label} />
      </Form.Item>
      {on && (
        <Space align="start" wrap>
          <Form.Item
            name={['escalation', 'refusals']}
            label={t('l4.refusals')}
            extra={t('l4.refusalsHelp', { min: ESCALATION_REFUSALS_MIN, max: ESCALATION_REFUSALS_MAX })}
            rules={numberRules(['escalation', 'refusals'])}
            required
          >
            <NumberInput aria-label={t('l4.refusals')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item
            name={['escalation', 'seconds']}
            label={t('l4.window')}
            extra={t('l4.windowHelp', { max: ESCALATION_SECONDS_MAX })}
            rules={numberRules(['escalation', 'seconds'])}
            required
          >
            <NumberInput aria-label={t('l4.window')} suffix={t('l4.seconds')} style={{ width: 200 }} />
          </Form.Item>
        </Space>
      )}
    </>
  );
}
