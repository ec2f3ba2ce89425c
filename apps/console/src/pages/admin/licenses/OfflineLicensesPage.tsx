import { licenseRoutes, type OfflineLicense } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { CopyButton } from '../../../components/CopyButton';
import type { ListColumns } from '../../../components/FitTable';
import { FormModal } from '../../../components/FormModal';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { schemaRules } from '../../../forms/zod-rules';
import { LicenseList } from './license-list';
import {
  LicenseSettingFields,
  type LicenseSettingValues,
  licenseSettingOf,
  licenseSettingValues,
} from './license-setting';

type OfflineValues = LicenseSettingValues & { customer: string; installID: string; operator: string };

const rules = schemaRules(licenseRoutes.putOfflineLicense.request.body, { licenseSetting: null });

/**
 * `/admin/offlineLicense`: licences for installations that never reach the vendor. Issuing signs
 * the record for its installation ID and operator account; the key is what that operator pastes
 * into its licence page (no other operator of the installation can use it).
 */
export function OfflineLicensesPage() {
  const { t } = useTranslation(['licenses', 'shell']);
  const search = useListSearch([]);
  const list = useQuery(
    routeQuery('admin', licenseRoutes.listOfflineLicenses, {
      query: { page: search.page, pageSize: search.pageSize },
    }),
  );
  const [editing, setEditing] = useState<OfflineLicense | 'new' | null>(null);
  const issue = useRouteMutation('admin', licenseRoutes.issueOfflineLicense, {
    input: (id: number) => ({ body: { id } }),
    invalidates: changes('licenses'),
    success: () => toastText('issueLicenseSuccess'),
  });
  const unregister = useRouteMutation('admin', licenseRoutes.unregisterOfflineLicense, {
    input: (id: number) => ({ body: { id } }),
    invalidates: changes('licenses'),
    success: () => toastText('updateSuccess'),
  });
  const remove = useRouteMutation('admin', licenseRoutes.deleteOfflineLicenses, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('licenses'),
    success: () => toastText('deleteSuccessful'),
  });

  const lead: ListColumns<OfflineLicense> = [
    // The names keep to one line of a bounded width (in full on hover): the list fits 1280 px.
    { title: t('customer'), dataIndex: 'customer', maxWidth: 120 },
    {
      title: t('installID'),
      dataIndex: 'installID',
      // In the form and the column chooser: a 36-character code the list has no room for at 1280 px.
      defaultHidden: true,
      render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
    },
    {
      title: t('operatorAccount'),
      dataIndex: 'operator',
      ellipsis: true,
      maxWidth: 100,
      render: (operator: string) => operator || '-',
    },
  ];
  const trail: ListColumns<OfflineLicense> = [
    {
      title: t('key'),
      dataIndex: 'key',
      width: 100,
      render: (key: string | null) =>
        key ? (
          <Space wrap>
            <Tag color="green">{t('issued')}</Tag>
            <CopyButton text={key} />
          </Space>
        ) : (
          <Tag>{t('notIssued')}</Tag>
        ),
    },
    // The row's buttons wrap inside a column of their own width.
    {
      ...actionsColumn((item: OfflineLicense) => (
        <RowActions
          wrap
          onEdit={() => setEditing(item)}
          deleteConfirm={t('deleteOfflineConfirm', { customer: item.customer })}
          deleting={pendingFor(remove, item.id)}
          onDelete={() => remove.mutate([item.id])}
        >
          {item.key ? (
            <ConfirmButton
              confirm={t('unregisterConfirm', { customer: item.customer })}
              pending={pendingFor(unregister, item.id)}
              onConfirm={() => unregister.mutate(item.id)}
            >
              {t('unregister')}
            </ConfirmButton>
          ) : (
            <Button size="small" loading={pendingFor(issue, item.id)} onClick={() => issue.mutate(item.id)}>
              {t('issue')}
            </Button>
          )}
        </RowActions>
      )),
      width: 160,
    },
  ];

  return (
    <LicenseList<OfflineLicense>
      title={t('shell:menu.offlineLicense')}
      createLabel={t('createOffline')}
      onCreate={() => setEditing('new')}
      list={list}
      paging={search}
      emptyText={t('emptyOffline')}
      lead={lead}
      trail={trail}
    >
      <OfflineFormModal license={editing} onClose={() => setEditing(null)} />
    </LicenseList>
  );
}

/** Creates an offline licence ('new') or edits one (which takes back its key); null closes. */
function OfflineFormModal({ license, onClose }: { license: OfflineLicense | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('licenses');
  const [form] = Form.useForm<OfflineValues>();
  const existing = license === 'new' ? null : license;
  const body = (values: OfflineValues) => ({
    customer: values.customer,
    installID: values.installID,
    operator: values.operator,
    licenseSetting: licenseSettingOf(values),
  });
  const save = useCreateOrUpdate('admin', {
    create: licenseRoutes.putOfflineLicense,
    update: licenseRoutes.putOfflineLicense,
    createInput: (values: OfflineValues) => ({ body: body(values) }),
    updateInput: (values) => ({ body: { id: values.id, ...body(values) } }),
    invalidates: changes('licenses'),
    success: { create: () => toastText('createOfflineLicenseSuccess'), update: () => toastText('updateSuccess') },
    form: { instance: form, fields: ['customer', 'installID', 'operator'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<OfflineValues>
      open={license !== null}
      title={existing ? t('editOfflineTitle', { customer: existing.customer }) : t('createOfflineTitle')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={{
        customer: existing?.customer ?? '',
        installID: existing?.installID ?? '',
        operator: existing?.operator ?? '',
        ...licenseSettingValues(existing?.licenseSetting),
      }}
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="customer" label={t('customer')} rules={rules('customer')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item
        name="installID"
        label={t('installID')}
        rules={rules('installID')}
        required
        extra={existing?.key ? t('editTakesKey') : t('installHint')}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="operator"
        label={t('operatorAccount')}
        rules={rules('operator')}
        required
        extra={t('operatorHint')}
      >
        <Input />
      </Form.Item>
      <LicenseSettingFields />
    </FormModal>
  );
}
