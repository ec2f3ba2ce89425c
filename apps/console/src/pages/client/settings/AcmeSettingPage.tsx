import {
  ACME_CAS,
  ACME_DIRECTORIES,
  type AcmeCa,
  type AcmeSetting,
  type AcmeSettingIn,
  acmeSettingInSchema,
  autoCertificateRoutes,
  eabSettingInSchema,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Radio, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { schemaRules } from '../../../forms/zod-rules';

type EabName = 'zeroSSL' | 'googleTrust';
const EAB_NAMES: readonly EabName[] = ['zeroSSL', 'googleTrust'];
const EAB_ROUTES = {
  zeroSSL: { get: autoCertificateRoutes.getZeroSSLSetting, save: autoCertificateRoutes.saveZeroSSLSetting },
  googleTrust: { get: autoCertificateRoutes.getGoogleTrustSetting, save: autoCertificateRoutes.saveGoogleTrustSetting },
} as const;

type CaForm = { ca: AcmeCa; directoryUrl?: string; caBundle?: string; email?: string };
const caRules = schemaRules(acmeSettingInSchema);
const eabRules = schemaRules(eabSettingInSchema);

/** What the CA form sends: a custom CA's directory and bundle, the contact address for every CA. */
function bodyOf(values: CaForm): AcmeSettingIn {
  const email = (values.email ?? '').trim();
  if (values.ca !== 'custom') return { ca: values.ca, caBundle: '', email };
  return {
    ca: 'custom',
    directoryUrl: (values.directoryUrl ?? '').trim(),
    caBundle: (values.caBundle ?? '').trim() === '' ? '' : (values.caBundle ?? ''),
    email,
  };
}

/** The directory the setting uses: the custom one, or the known CA's. */
function directoryOf(setting: Pick<AcmeSetting, 'ca' | 'directoryUrl'>): string {
  return setting.ca === 'custom' ? setting.directoryUrl : ACME_DIRECTORIES[setting.ca];
}

/**
 * `/client/systemManagement/acmeSetting`: the operator's ACME certificate authority for automatic
 * certificates (`GET/PUT client/setting/acme`: Let's Encrypt, ZeroSSL, Google Trust Services or any
 * directory URL with the bundle of a private CA) and the EAB credentials ZeroSSL and Google Trust
 * Services require (`client/setting/zeroSSL`, `googleTrust`; the HMAC key is write-only: left
 * empty, the stored one is kept). Each save says what it set.
 */
export function AcmeSettingPage() {
  const { t } = useTranslation(['acmeSetting', 'shell', 'common']);
  const [form] = Form.useForm<CaForm>();
  const canWrite = useCan('client.settings.write');
  const setting = useQuery(routeQuery('client', autoCertificateRoutes.getAcmeSetting, {}));
  const eab = {
    zeroSSL: useQuery(routeQuery('client', EAB_ROUTES.zeroSSL.get, {})),
    googleTrust: useQuery(routeQuery('client', EAB_ROUTES.googleTrust.get, {})),
  };
  const current = setting.data?.data;
  const ca: AcmeCa = Form.useWatch('ca', form) ?? current?.ca ?? 'letsEncrypt';

  const save = useRouteMutation('client', autoCertificateRoutes.saveAcmeSetting, {
    input: (values: CaForm) => ({ body: bodyOf(values) }),
    invalidates: changes('acmeSetting'),
    form: { instance: form, fields: ['ca', 'directoryUrl', 'caBundle', 'email'] },
    onSuccess: (reply) => {
      toast.success(t('saved', { ca: t(`cas.${reply.data.ca}`), directory: directoryOf(reply.data) }));
      form.setFieldsValue(reply.data);
    },
  });

  // The chosen CA needs EAB credentials that are not stored yet: issuing would fail.
  const missingEab = (ca === 'zeroSSL' || ca === 'googleTrust') && eab[ca].isSuccess && !eab[ca].data?.data;
  return (
    <>
      <PageTitle>{t('shell:menu.acmeSetting')}</PageTitle>
      <Alert type="info" showIcon title={t('hint')} style={{ marginBottom: 16, maxWidth: 720 }} />
      {setting.isError && <LoadFailed title={t('failed')} onRetry={() => setting.refetch()} />}
      {setting.isLoading && <Spin />}
      {current && (
        <Form
          form={form}
          name="acme"
          layout="vertical"
          style={{ maxWidth: 640 }}
          initialValues={current}
          disabled={!canWrite}
          onFinish={(values) => save.mutate({ ...form.getFieldsValue(true), ...values })}
        >
          <div style={{ marginBottom: 16 }}>
            <Tag color="blue">{t('inUse', { ca: t(`cas.${current.ca}`) })}</Tag>
            <Typography.Text code>{directoryOf(current)}</Typography.Text>
          </div>
          <Form.Item
            name="ca"
            label={t('fields.ca')}
            extra={ca === 'custom' ? t('customHint') : t('directory', { url: ACME_DIRECTORIES[ca] })}
          >
            <Radio.Group optionType="button" options={ACME_CAS.map((value) => ({ value, label: t(`cas.${value}`) }))} />
          </Form.Item>
          {missingEab && (
            <Alert
              type="warning"
              showIcon
              title={t('eabMissing', { ca: t(`cas.${ca}`) })}
              style={{ marginBottom: 16 }}
            />
          )}
          {ca === 'custom' && (
            <>
              <Form.Item
                name="directoryUrl"
                label={t('fields.directoryUrl')}
                rules={caRules('directoryUrl')}
                validateTrigger="onSubmit"
                required
              >
                <Input placeholder="https://acme.example.net/directory" />
              </Form.Item>
              <Form.Item
                name="caBundle"
                label={t('fields.caBundle')}
                extra={t('caBundleHint')}
                rules={caRules('caBundle')}
                validateTrigger="onSubmit"
              >
                <Input.TextArea
                  rows={6}
                  placeholder="-----BEGIN CERTIFICATE-----"
                  style={{ fontFamily: 'monospace' }}
                />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="email"
            label={t('fields.email')}
            extra={t('emailHint')}
            rules={caRules('email')}
            validateTrigger="onSubmit"
          >
            <Input placeholder="ops@example.net" />
          </Form.Item>
          {canWrite && (
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          )}
        </Form>
      )}
      {EAB_NAMES.map((name) => (
        <EabCard key={name} name={name} canWrite={canWrite} />
      ))}
    </>
  );
}

/** One CA's EAB credentials: the key ID shown, the HMAC key write-only. */
function EabCard({ name, canWrite }: { name: EabName; canWrite: boolean }) {
  const { t } = useTranslation('acmeSetting');
  const [form] = Form.useForm<{ kid: string; hmacKey?: string }>();
  const setting = useQuery(routeQuery('client', EAB_ROUTES[name].get, {}));
  const stored = setting.data?.data ?? null;
  const save = useRouteMutation('client', EAB_ROUTES[name].save, {
    input: (values: { kid: string; hmacKey?: string }) => ({
      body: { kid: values.kid.trim(), ...(values.hmacKey ? { hmacKey: values.hmacKey.trim() } : {}) },
    }),
    invalidates: changes('acmeSetting'),
    form: { instance: form, fields: ['kid', 'hmacKey'] },
    onSuccess: (reply, values) => {
      toast.success(
        t(values.hmacKey ? 'eab.savedNewKey' : 'eab.savedKeptKey', { ca: t(`cas.${name}`), kid: reply.data.kid }),
      );
      form.setFieldsValue({ kid: reply.data.kid, hmacKey: '' });
    },
  });
  const hasKey = stored?.hasHmacKey === true;
  return (
    <Card
      title={t('eab.title', { ca: t(`cas.${name}`) })}
      extra={hasKey ? <Tag color="green">{t('eab.stored')}</Tag> : <Tag>{t('eab.none')}</Tag>}
      style={{ maxWidth: 640, marginTop: 24 }}
    >
      {setting.isLoading ? (
        <Spin />
      ) : (
        <Form
          form={form}
          // Field ids are prefixed with it: the two cards' fields have the same names.
          name={name}
          layout="vertical"
          aria-label={t('eab.title', { ca: t(`cas.${name}`) })}
          initialValues={{ kid: stored?.kid ?? '', hmacKey: '' }}
          disabled={!canWrite}
          onFinish={(values) => save.mutate(values)}
        >
          <Typography.Paragraph type="secondary">{t('eab.hint', { ca: t(`cas.${name}`) })}</Typography.Paragraph>
          <Form.Item name="kid" label={t('eab.kid')} rules={eabRules('kid')} validateTrigger="onSubmit" required>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="hmacKey"
            label={t('eab.hmacKey')}
            rules={eabRules('hmacKey')}
            validateTrigger="onSubmit"
            extra={hasKey ? t('eab.keyKept') : undefined}
            required={!hasKey}
          >
            <Input.Password autoComplete="new-password" placeholder={hasKey ? t('eab.unchanged') : ''} />
          </Form.Item>
          {canWrite && (
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('eab.save')}
            </Button>
          )}
        </Form>
      )}
    </Card>
  );
}
