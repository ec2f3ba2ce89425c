import { type RateRule, siteSettingRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { FormModal } from '../../../../components/FormModal';
import { ListEmpty } from '../../../../components/ListEmpty';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { NumberInput } from '../../../../forms/NumberInput';
import { schemaRules } from '../../../../forms/zod-rules';

interface RateValues {
  url: string;
  rate: number;
  memo: string;
}
const FIELDS = ['url', 'rate', 'memo'] as const;
const rules = schemaRules(siteSettingRoutes.updateRateRule.request.body);
/** Bandwidth limits: a path pattern and KB/s per rule; add, edit and delete. */
export function RateLimitsCard({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['siteSettings', 'common']);
  const [editing, setEditing] = useState<RateRule | 'new' | null>(null);
  const [form] = Form.useForm<RateValues>();
  const params = { siteId };
  const list = useQuery(routeQuery('user', siteSettingRoutes.listRateRules, { params }));
  const fields = { instance: form, fields: FIELDS };
  const close = () => setEditing(null);
  const add = useRouteMutation('user', siteSettingRoutes.addRateRules, {
    input: (values: RateValues) => ({ params, body: { data: [{ ...values, memo: values.memo ?? '' }] } }),
    invalidates: changes('siteSettings'),
    success: () => toastText('rateAddedSuccess'),
    form: { instance: form, fields: FIELDS },
    onSuccess: close,
  });
  const update = useRouteMutation('user', siteSettingRoutes.updateRateRule, {
    input: ({ id, ...values }: RateValues & { id: number }) => ({
      params: { siteId, ruleId: id },
      body: { ...values, memo: values.memo ?? '' },
    }),
    invalidates: changes('siteSettings'),
    success: () => toastText('setSuccess'),
    form: fields,
    onSuccess: close,
  });
  const remove = useRouteMutation('user', siteSettingRoutes.deleteRateRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('siteSettings'),
    success: () => toastText('deleteSuccess'),
  });
  const existing = editing === 'new' ? null : editing;

  const columns: ListColumns<RateRule> = [
    { title: t('rates.url'), dataIndex: 'url', render: (url: string) => <Typography.Text code>{url}</Typography.Text> },
    { title: t('rates.rate'), dataIndex: 'rate', render: (rate: number) => t('rates.kbps', { rate }) },
    { title: t('rates.memo'), dataIndex: 'memo' },
    actionsColumn((rule) => (
      <RowActions
        onEdit={() => setEditing(rule)}
        deleteConfirm={t('rates.deleteConfirm', { url: rule.url })}
        deleting={pendingFor(remove, rule.id)}
        onDelete={() => remove.mutate(rule.id)}
      />
    )),
  ];

  return (
    <Card
      title={t('rates.title')}
      style={{ marginBottom: 16 }}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('rates.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('rates.hint')}</Typography.Paragraph>
      <FitTable<RateRule>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isLoading}
        pagination={false}
        locale={{
          emptyText: <ListEmpty text={t('rates.empty')} failed={list.isError} onRetry={() => list.refetch()} />,
        }}
      />
      <FormModal<RateValues>
        open={editing !== null}
        title={existing ? t('rates.editTitle') : t('rates.addTitle')}
        form={form}
        pending={add.isPending || update.isPending}
        onCancel={close}
        initialValues={existing ? { url: existing.url, rate: existing.rate, memo: existing.memo } : { memo: '' }}
        onSubmit={(values) => (existing ? update.mutate({ ...values, id: existing.id }) : add.mutate(values))}
      >
        <Form.Item name="url" label={t('rates.url')} extra={t('rates.urlHint')} rules={rules('url')} required>
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="rate" label={t('rates.rate')} rules={rules('rate')} required>
          <NumberInput addonAfter="KB/s" />
        </Form.Item>
        <Form.Item name="memo" label={t('rates.memo')} rules={rules('memo')}>
          <Input />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
