import { GZIP_TYPES, type GzipSettingInput, gzipSettingInputSchema, siteSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { ListEmpty } from '../../../../components/ListEmpty';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';

type Values = Required<GzipSettingInput>;
const FIELDS = ['enabled', 'types', 'minLength'] as const;
const minLengthRules = valueRules(gzipSettingInputSchema.shape.minLength);

/**
 * The compression fields (on or off, the types, the minimum length) of a form, under `prefix` when
 * given (the operator's predefined settings keep them under `gzip`).
 */
export function CompressionFields({ enabled, prefix }: { enabled: boolean; prefix?: string }) {
  const { t } = useTranslation('siteSettings');
  const name = (field: string) => (prefix ? [prefix, field] : field);
  return (
    <>
      <Form.Item name={name('enabled')} label={t('gzip.enabled')} valuePropName="checked">
        <Switch aria-label={t('gzip.enabled')} />
      </Form.Item>
      <Form.Item
        name={name('types')}
        label={t('gzip.types')}
        rules={[{ required: enabled, type: 'array', min: enabled ? 1 : 0, message: t('gzip.typesRequired') }]}
      >
        <Checkbox.Group options={GZIP_TYPES.map((type) => ({ label: type, value: type }))} disabled={!enabled} />
      </Form.Item>
      <Form.Item
        name={name('minLength')}
        label={t('gzip.minLength')}
        extra={t('gzip.minLengthHint')}
        rules={minLengthRules}
      >
        <NumberInput disabled={!enabled} />
      </Form.Item>
    </>
  );
}

/** Compression on or off, the response types to compress and the minimum length in bytes. */
export function CompressionCard({ siteId }: { siteId: number }) {
  const { t } = useTranslation('siteSettings');
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('enabled', form) ?? false;
  const setting = useQuery(routeQuery('user', siteSettingRoutes.getGzipSetting, { params: { siteId } }));
  const current = setting.data?.data;
  useEffect(() => {
    if (current) form.setFieldsValue({ enabled: current.enabled, types: current.types, minLength: current.minLength });
  }, [current, form]);
  const save = useRouteMutation('user', siteSettingRoutes.setGzipSetting, {
    input: (values: Values) => ({ params: { siteId }, body: values }),
    invalidates: changes('siteSettings'),
    success: () => toastText('httpCompressionSetSuccess'),
    form: { instance: form, fields: FIELDS },
  });

  return (
    <Card title={t('gzip.title')} loading={setting.isLoading} style={{ marginBottom: 16 }}>
      {setting.isError ? (
        <ListEmpty text="" failed onRetry={() => setting.refetch()} />
      ) : (
        <Form<Values> form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
          <CompressionFields enabled={enabled} />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
