import {
  DEFAULT_DNS_TTL,
  DNS_PROVIDER_TYPES,
  type DnsProviderType,
  type DnsSetting,
  type DnsSettingIn,
  dnsSettingInSchema,
  dnsSettingRoutes,
  TSIG_ALGORITHMS,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { loadSelf } from '../../../session/session';
import { DnsPublishSection } from './DnsPublishSection';

/** Every provider type's fields as the form holds them (the chosen type's are sent). */
type FormValues = Record<string, string | number | undefined> & { type: DnsProviderType };

type Field =
  | 'apiUrl'
  | 'apiKey'
  | 'serverId'
  | 'zone'
  | 'ttl'
  | 'server'
  | 'keyName'
  | 'algorithm'
  | 'secret'
  | 'apiToken'
  | 'token';

/** The fields of each type, in the order the form shows them; the secret is the last. */
const FIELDS: Readonly<Record<DnsProviderType, readonly Field[]>> = {
  powerdns: ['apiUrl', 'serverId', 'zone', 'ttl', 'apiKey'],
  rfc2136: ['server', 'zone', 'keyName', 'algorithm', 'ttl', 'secret'],
  cloudflare: ['zone', 'ttl', 'apiToken'],
  dnspod: ['zone', 'ttl', 'token'],
};
const SECRETS: ReadonlySet<string> = new Set<Field>(['apiKey', 'secret', 'apiToken', 'token']);
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  apiUrl: 'http://127.0.0.1:8081',
  serverId: 'localhost',
  zone: 'cdn.example.net',
  server: '192.0.2.53:53',
  keyName: 'rampart-update',
  token: '123456,0123456789abcdef',
};
const rules = schemaRules(dnsSettingInSchema);

/** What the form sends: the chosen type's filled fields (an empty secret keeps the stored one). */
function bodyOf(values: FormValues): DnsSettingIn {
  const out: Record<string, unknown> = { type: values.type };
  for (const field of FIELDS[values.type]) {
    const value = values[field];
    if (value === undefined || value === '') continue;
    out[field] = typeof value === 'string' ? value.trim() : value;
  }
  return out as DnsSettingIn;
}

function formOf(setting: DnsSetting | null | undefined): FormValues {
  const base: FormValues = { type: 'powerdns', serverId: 'localhost', algorithm: 'hmac-sha256', ttl: DEFAULT_DNS_TTL };
  if (!setting) return base;
  const { hasSecret: _, ...fields } = setting;
  return { ...base, ...fields };
}

/**
 * `/client/systemManagement/dnsSetting` (spec part 1 §2 `dnsSetting`): the operator's DNS provider
 * (`client/setting/dns` GET/POST/DELETE, `dns/test`): PowerDNS, RFC 2136 with TSIG, Cloudflare or
 * DNSPod, the zone Rampart publishes in and the records' TTL. Secrets are never shown: a stored
 * one is kept when its field is left empty. "Test" checks the values in the form (the stored secret
 * filling an empty field) and shows the provider's answer; a root operator without a provider
 * lands here after login.
 */
export function DnsSettingPage() {
  const { t } = useTranslation(['dnsSetting', 'shell', 'common']);
  const [form] = Form.useForm<FormValues>();
  const canWrite = useCan('client.settings.write');
  const [deleting, setDeleting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const setting = useQuery(routeQuery('client', dnsSettingRoutes.getDnsSetting, {}));
  const current = setting.data?.data;
  const type: DnsProviderType = Form.useWatch('type', form) ?? current?.type ?? 'powerdns';
  const fieldNames = [...new Set(Object.values(FIELDS).flat())];

  const save = useRouteMutation('client', dnsSettingRoutes.saveDnsSetting, {
    input: (values: FormValues) => ({ body: bodyOf(values) }),
    invalidates: changes('dnsSetting'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['type', ...fieldNames] },
    onSuccess: (reply) => {
      form.setFieldsValue({ ...formOf(reply.data), [secretField(reply.data.type)]: '' });
      // The account's dnsType follows the setting (the after-login rule reads it).
      void loadSelf('client').catch(() => undefined);
    },
  });
  const test = useRouteMutation('client', dnsSettingRoutes.testDnsSetting, {
    input: (values: FormValues) => ({ body: bodyOf(values) }),
    invalidates: [],
    form: { instance: form, fields: ['type', ...fieldNames] },
    onSuccess: (reply) => setOutcome({ ok: true, text: reply.data.detail }),
  });
  const remove = useRouteMutation('client', dnsSettingRoutes.deleteDnsSetting, {
    input: () => ({}),
    invalidates: changes('dnsSetting'),
    success: () => toastText('deleteSuccess'),
    onSuccess: () => {
      form.setFieldsValue(formOf(null));
      void loadSelf('client').catch(() => undefined);
    },
  });

  const runTest = async () => {
    setOutcome(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    test.mutate(form.getFieldsValue(true), {
      onError: (error) => {
        // The provider's own words: why the zone could not be read or written.
        if (error instanceof ApiError && error.code === 101010) {
          const extra = error.extra as { reason?: string } | undefined;
          setOutcome({ ok: false, text: extra?.reason ?? error.serverMessage ?? '' });
        }
      },
    });
  };

  const stored = current !== null && current !== undefined && current.type === type && current.hasSecret;
  return (
    <>
      <PageTitle>{t('shell:menu.dnsSetting')}</PageTitle>
      <Alert type="info" showIcon title={t('hint')} style={{ marginBottom: 16, maxWidth: 720 }} />
      {setting.isError && <LoadFailed title={t('failed')} onRetry={() => setting.refetch()} />}
      {setting.isLoading && <Spin />}
      {setting.isSuccess && (
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 560 }}
          initialValues={formOf(current)}
          disabled={!canWrite}
          onFinish={(values) => save.mutate({ ...form.getFieldsValue(true), ...values })}
          onValuesChange={() => setOutcome(null)}
        >
          <div style={{ marginBottom: 16 }}>
            {current ? (
              <Tag color="blue">{t('inUse', { type: t(`types.${current.type}`) })}</Tag>
            ) : (
              <Tag color="orange">{t('none')}</Tag>
            )}
          </div>
          <Form.Item name="type" label={t('fields.type')} extra={t(`typeHints.${type}`)}>
            <Radio.Group
              optionType="button"
              options={DNS_PROVIDER_TYPES.map((value) => ({ value, label: t(`types.${value}`) }))}
            />
          </Form.Item>
          {FIELDS[type].map((field) => (
            <Form.Item
              key={`${type}-${field}`}
              name={field}
              label={t(`fields.${field}`)}
              rules={rules(field)}
              validateTrigger="onSubmit"
              extra={SECRETS.has(field) && stored ? t('secretKept') : undefined}
              required={!SECRETS.has(field) || !stored}
            >
              {field === 'ttl' ? (
                <NumberInput style={{ width: 160 }} />
              ) : field === 'algorithm' ? (
                <Select options={TSIG_ALGORITHMS.map((value) => ({ value, label: value }))} style={{ width: 200 }} />
              ) : SECRETS.has(field) ? (
                <Input.Password autoComplete="new-password" placeholder={stored ? t('secretPlaceholder') : ''} />
              ) : (
                <Input placeholder={PLACEHOLDERS[field]} />
              )}
            </Form.Item>
          ))}
          {outcome && (
            <Alert
              type={outcome.ok ? 'success' : 'error'}
              showIcon
              title={outcome.ok ? t('testPassed') : t('testFailed')}
              description={outcome.text}
              style={{ marginBottom: 16 }}
            />
          )}
          {canWrite && (
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('save')}
              </Button>
              <Button onClick={runTest} loading={test.isPending}>
                {t('test')}
              </Button>
              <Button danger disabled={!current} onClick={() => setDeleting(true)}>
                {t('delete')}
              </Button>
            </Space>
          )}
        </Form>
      )}
      <Modal
        open={deleting}
        title={t('confirmDelete')}
        okButtonProps={{ danger: true, loading: remove.isPending }}
        onOk={() => remove.mutate(undefined, { onSettled: () => setDeleting(false) })}
        onCancel={() => setDeleting(false)}
        destroyOnHidden
      >
        {t('deleteWarning')}
      </Modal>
      {current && <DnsPublishSection />}
    </>
  );
}

function secretField(type: DnsProviderType): string {
  return FIELDS[type].find((field) => SECRETS.has(field)) ?? '';
}
