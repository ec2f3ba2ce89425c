import { cnameSettingRoutes, zDomainName } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { valueRules } from '../../../forms/zod-rules';
import { CnameRecordsSection } from './CnameRecordsSection';
import { DomainProofSetting } from './DomainProofSetting';
import { PrivateOriginsSetting } from './PrivateOriginsSetting';

const domainRules = valueRules(zDomainName());

/**
 * `/client/systemManagement/cname`: the operator's CNAME domain (`GET/PUT client/setting/dns/cname`),
 * under which its customers' domains get their CNAME targets. Shows the domain in use and whether it
 * is the installation's default; the operator sets its own or goes back to the default (''). Both
 * ask first: a change sends every domain's CNAME status back to "not checked".
 */
export function CnameSettingPage() {
  const { t } = useTranslation(['cnameSetting', 'shell', 'common']);
  const [form] = Form.useForm<{ domain: string }>();
  const canWrite = useCan('client.settings.write');
  // The domain about to be saved ('' = back to the default); null when not asking.
  const [asking, setAsking] = useState<string | null>(null);
  const setting = useQuery(routeQuery('client', cnameSettingRoutes.getCnameSetting, {}));
  const save = useRouteMutation('client', cnameSettingRoutes.putCnameSetting, {
    input: (domain: string) => ({ body: { domain } }),
    invalidates: changes('cnameSetting'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['domain'] },
    onSuccess: (reply) => {
      form.setFieldsValue({ domain: reply.data.custom ? reply.data.domain : '' });
    },
  });

  const current = setting.data?.data;
  return (
    <>
      <PageTitle>{t('shell:menu.cname')}</PageTitle>
      <Alert type="info" showIcon title={t('hint')} style={{ marginBottom: 16 }} />
      {setting.isError && <LoadFailed title={t('failed')} onRetry={() => setting.refetch()} />}
      {setting.isLoading && <Spin />}
      {current && (
        <>
          <Descriptions
            column={1}
            bordered
            style={{ maxWidth: 720, marginBottom: 16 }}
            items={[
              {
                key: 'current',
                label: t('current'),
                children: <Typography.Text code>{current.domain}</Typography.Text>,
              },
              {
                key: 'source',
                label: t('source'),
                children: current.custom ? <Tag color="blue">{t('custom')}</Tag> : <Tag>{t('default')}</Tag>,
              },
              { key: 'default', label: t('defaultDomain'), children: current.defaultDomain },
            ]}
          />
          <Alert type="warning" showIcon title={t('warning')} style={{ maxWidth: 720, marginBottom: 16 }} />
          {canWrite && (
            <Form
              form={form}
              layout="vertical"
              style={{ maxWidth: 480 }}
              initialValues={{ domain: current.custom ? current.domain : '' }}
              onFinish={({ domain }) => setAsking(domain.trim())}
            >
              <Form.Item name="domain" label={t('domain')} rules={domainRules} validateTrigger="onSubmit">
                <Input placeholder={t('placeholder')} />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit">
                  {t('save')}
                </Button>
                <Button disabled={!current.custom} onClick={() => setAsking('')}>
                  {t('reset')}
                </Button>
              </Space>
            </Form>
          )}
          <Modal
            open={asking !== null}
            title={
              asking === ''
                ? t('confirmReset', { domain: current.defaultDomain })
                : t('confirmSave', { domain: asking ?? '' })
            }
            okButtonProps={{ loading: save.isPending }}
            // Closed either way: a refused domain shows its error under the field.
            onOk={() => asking !== null && save.mutate(asking, { onSettled: () => setAsking(null) })}
            onCancel={() => setAsking(null)}
            destroyOnHidden
          >
            {t('warning')}
          </Modal>
        </>
      )}
      <CnameRecordsSection />
      <DomainProofSetting />
      <PrivateOriginsSetting />
    </>
  );
}
