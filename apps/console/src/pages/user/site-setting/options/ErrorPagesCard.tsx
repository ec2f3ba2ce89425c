import {
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_STATUSES,
  type ErrorPage,
  type ErrorPageStatus,
  siteSettingRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Form, Input, Select, Space, Tag, Typography } from 'antd';
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
import { schemaRules } from '../../../../forms/zod-rules';

const rules = schemaRules(siteSettingRoutes.setErrorPage.request.body);
interface Row {
  status: ErrorPageStatus;
  page: ErrorPage | undefined;
}

/**
 * One row per status a site may give a page (including the 9xx block codes): the site's own page,
 * or the edge's default in the language chosen above the table.
 */
export function ErrorPagesCard({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['siteSettings', 'common']);
  const [editing, setEditing] = useState<Row | null>(null);
  const [form] = Form.useForm<{ body: string }>();
  const params = { siteId };
  const query = useQuery(routeQuery('user', siteSettingRoutes.getErrorPages, { params }));
  const data = query.data?.data;
  const close = () => setEditing(null);
  const language = useRouteMutation('user', siteSettingRoutes.setErrorPageLanguage, {
    input: (value: (typeof ERROR_PAGE_LANGUAGES)[number]) => ({ params, body: { language: value } }),
    invalidates: changes('siteSettings'),
    success: () => toastText('setSuccess'),
  });
  const save = useRouteMutation('user', siteSettingRoutes.setErrorPage, {
    input: ({ status, body }: { status: number; body: string }) => ({ params, body: { status, body } }),
    invalidates: changes('siteSettings'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['body'] as const },
    onSuccess: close,
  });
  const remove = useRouteMutation('user', siteSettingRoutes.deleteErrorPages, {
    input: (status: number) => ({ params, body: { statuses: [status] } }),
    invalidates: changes('siteSettings'),
    success: () => toastText('removeSuccess'),
  });

  const rows: Row[] = ERROR_PAGE_STATUSES.map((status) => ({
    status,
    page: data?.pages.find((p) => p.status === status),
  }));
  const columns: ListColumns<Row> = [
    { title: t('pages.status'), dataIndex: 'status' },
    {
      title: t('pages.page'),
      key: 'page',
      render: (_, row) => (row.page ? <Tag color="blue">{t('pages.custom')}</Tag> : <Tag>{t('pages.default')}</Tag>),
    },
    actionsColumn((row) => (
      <RowActions
        onEdit={() => setEditing(row)}
        editAriaLabel={t('pages.editFor', { status: row.status })}
        deleteLabel={t('pages.remove')}
        deleteConfirm={row.page ? t('pages.removeConfirm', { status: row.status }) : undefined}
        deleting={pendingFor(remove, row.status)}
        onDelete={() => remove.mutate(row.status)}
      />
    )),
  ];

  return (
    <Card title={t('pages.title')} style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">{t('pages.hint')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }}>
        <Typography.Text id="error-page-language">{t('pages.language')}</Typography.Text>
        <Select
          aria-labelledby="error-page-language"
          style={{ width: 160 }}
          value={data?.language}
          loading={query.isLoading || language.isPending}
          onChange={(value) => language.mutate(value)}
          options={ERROR_PAGE_LANGUAGES.map((code) => ({ value: code, label: t(`common:languageNames.${code}`) }))}
        />
      </Space>
      <FitTable<Row>
        rowKey="status"
        columns={columns}
        dataSource={query.isError ? [] : rows}
        loading={query.isLoading}
        pagination={false}
        size="small"
        locale={{ emptyText: <ListEmpty text="" failed={query.isError} onRetry={() => query.refetch()} /> }}
      />
      <FormModal<{ body: string }>
        open={editing !== null}
        title={t('pages.editTitle', { status: editing?.status ?? '' })}
        form={form}
        width={720}
        pending={save.isPending}
        onCancel={close}
        initialValues={{ body: editing?.page?.body ?? '' }}
        onSubmit={({ body }) => editing && save.mutate({ status: editing.status, body })}
      >
        <Form.Item name="body" label={t('pages.body')} extra={t('pages.bodyHint')} rules={rules('body')} required>
          <Input.TextArea rows={12} autoFocus style={{ fontFamily: 'monospace' }} />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
