import { UploadOutlined } from '@ant-design/icons';
import { type CertificateSummary, certificateRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { DateTime } from '../../../../components/DateTime';
import type { ListColumns } from '../../../../components/FitTable';
import { ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { SearchBox } from '../../../../components/SearchBox';
import { TagList } from '../../../../components/TagList';
import { pendingFor } from '../../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../../features/lists/use-list-search';
import { AssignCertificateModal } from './AssignCertificateModal';
import { CertificateDrawer } from './CertificateDrawer';
import { CertificateFormModal } from './CertificateFormModal';
import { CertificateStatusTag } from './CertificateStatusTag';

const _SORT_FIELDS = ['name', 'notAfter', 'createdAt'] as const;

/** A site's certificates, paged, searched and sorted on the server; upload, edit, assign, delete, details. */
export function CertificatesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['certificates', 'common']);
  const search = useListSearch(['name', 'sortBy', 'orderBy'] as const);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(certificateRoutes.listCertificates.request.query, search, ['name', 'sortBy', 'orderBy']),
  };
  const params = { siteId };
  const certificates = useQuery(routeQuery('user', certificateRoutes.listCertificates, { params, query }));
  const [editing, setEditing] = useState<CertificateSummary | 'new' | null>(null);
  const [assigning, setAssigning] = useState<CertificateSummary | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const remove = useRouteMutation('user', certificateRoutes.deleteCertificates, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('certificates'),
    success: () => toastText('deleteSuccess'),
  });

  const columns: ListColumns<CertificateSummary> = [
    {
      title: t('name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: search.sortOrder('name'),
      render: (name: string, cert) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setViewing(cert.id)}>
          {name}
        </Button>
      ),
    },
    {
      title: t('names'),
      dataIndex: 'names',
      render: (names: string[]) => <TagList items={names} />,
    },
    { title: t('issuer'), dataIndex: 'issuer', ellipsis: true, defaultHidden: true },
    {
      title: t('notAfter'),
      dataIndex: 'notAfter',
      sorter: true,
      sortOrder: search.sortOrder('notAfter'),
      render: (value: string) => <DateTime value={value} />,
    },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: CertificateSummary['status']) => <CertificateStatusTag status={status} />,
    },
    { title: t('domainCount'), dataIndex: 'domainCount' },
    actionsColumn((cert) => (
      <RowActions
        before={
          <Button size="small" onClick={() => setAssigning(cert)}>
            {t('assign.open')}
          </Button>
        }
        onEdit={() => setEditing(cert)}
        deleteConfirm={t('deleteConfirm', { name: cert.name })}
        deleting={pendingFor(remove, cert.id)}
        onDelete={() => remove.mutate(cert.id)}
      />
    )),
  ];

  return (
    <>
      <Flex justify="space-between" gap="small" wrap style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('search')}
          value={search.filters.name}
          onSearch={(text) => search.setFilters({ name: text })}
        />
        <Button type="primary" icon={<UploadOutlined />} onClick={() => setEditing('new')}>
          {t('upload')}
        </Button>
      </Flex>
      <ListTable<CertificateSummary>
        rowKey="id"
        columns={columns}
        list={certificates}
        paging={search}
        emptyText={t('empty')}
      />
      <CertificateFormModal siteId={siteId} certificate={editing} onClose={() => setEditing(null)} />
      <AssignCertificateModal siteId={siteId} certificate={assigning} onClose={() => setAssigning(null)} />
      <CertificateDrawer siteId={siteId} certificateId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
