import { type License, licenseRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { ConfirmButton } from '../../../components/ConfirmButton';
import type { ListColumns } from '../../../components/FitTable';
import { FormModal } from '../../../components/FormModal';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { AccountPicker } from '../../client/sites/AccountPicker';
import { LicenseList } from './license-list';
import {
  LicenseSettingFields,
  type LicenseSettingValues,
  licenseSettingOf,
  licenseSettingValues,
} from './license-setting';

type LicenseValues = LicenseSettingValues & { userID: number };

/**
 * `/admin/licenses`: the operators' online licences, newest first. A new licence is a draft until
 * issued; the operator's licence is the one issued last (docs/decisions.md "Licences").
 */
export function LicensesPage() {
  const { t } = useTranslation(['licenses', 'shell']);
  const search = useListSearch([]);
  const list = useQuery(
    routeQuery('admin', licenseRoutes.listLicenses, { query: { page: search.page, pageSize: search.pageSize } }),
  );
  const [editing, setEditing] = useState<License | 'new' | null>(null);
  const issue = useRouteMutation('admin', licenseRoutes.issueLicense, {
    input: (id: number) => ({ body: { id } }),
    invalidates: changes('licenses'),
    success: () => toastText('issueLicenseSuccess'),
  });
  const remove = useRouteMutation('admin', licenseRoutes.deleteLicenses, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('licenses'),
    success: () => toastText('removeLicenseSuccess'),
  });

  const lead: ListColumns<License> = [
    { title: t('id'), dataIndex: 'id', width: 72 },
    { title: t('operator'), dataIndex: 'userName' },
  ];
  const trail: ListColumns<License> = [
    {
      title: t('status'),
      dataIndex: 'issued',
      render: (issued: boolean) => (issued ? <Tag color="green">{t('issued')}</Tag> : <Tag>{t('draft')}</Tag>),
    },
    actionsColumn((item) => (
      <RowActions
        onEdit={() => setEditing(item)}
        deleteConfirm={t('deleteConfirm', { id: item.id })}
        deleting={pendingFor(remove, item.id)}
        onDelete={() => remove.mutate([item.id])}
      >
        {!item.issued && (
          <ConfirmButton
            confirm={t('issueConfirm')}
            pending={pendingFor(issue, item.id)}
            onConfirm={() => issue.mutate(item.id)}
          >
            {t('issue')}
          </ConfirmButton>
        )}
      </RowActions>
    )),
  ];

  return (
    <LicenseList<License>
      title={t('shell:menu.licenses')}
      createLabel={t('create')}
      onCreate={() => setEditing('new')}
      list={list}
      paging={search}
      emptyText={t('empty')}
      lead={lead}
      trail={trail}
    >
      <LicenseFormModal license={editing} onClose={() => setEditing(null)} />
    </LicenseList>
  );
}

/** Drafts a licence for an operator ('new') or edits one's settings; null closes. */
function LicenseFormModal({ license, onClose }: { license: License | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('licenses');
  const [form] = Form.useForm<LicenseValues>();
  const existing = license === 'new' ? null : license;
  const save = useCreateOrUpdate('admin', {
    create: licenseRoutes.createLicense,
    update: licenseRoutes.updateLicense,
    createInput: (values: LicenseValues) => ({
      body: { userID: values.userID, licenseSetting: licenseSettingOf(values) },
    }),
    updateInput: (values) => ({ body: { id: values.id, licenseSetting: licenseSettingOf(values) } }),
    invalidates: changes('licenses'),
    success: { create: () => toastText('createLicensesSuccess'), update: () => toastText('updateLicenseSuccess') },
    form: { instance: form, fields: ['userID'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<LicenseValues>
      open={license !== null}
      title={existing ? t('editTitle', { id: existing.id }) : t('createTitle')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={licenseSettingValues(existing?.licenseSetting)}
      onSubmit={(values) => save.submit(values, existing)}
    >
      {!existing && (
        <Form.Item name="userID" label={t('operator')} rules={[{ required: true, message: t('required') }]}>
          <AccountPicker console="admin" />
        </Form.Item>
      )}
      <LicenseSettingFields />
    </FormModal>
  );
}
