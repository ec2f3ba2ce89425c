import {
  AUTO_CERT_STATUSES,
  type AutoCertificate,
  type AutoCertStatus,
  autoCertificateRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { ChoiceFilter } from '../../../components/ChoiceFilter';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';

const FILTER_KEYS = ['domain', 'status', 'lastError'] as const;
const STATUS_COLORS: Record<AutoCertStatus, string> = {
  pending: 'default',
  issuing: 'processing',
  valid: 'green',
  failed: 'red',
};

/**
 * `/client/sitesManagement/autoSSLManagement`: the automatic certificates of the operator's sites
 * (spec part 1 §2 `autoSSLManagement`), paged and filtered on the server (domain, status, last
 * error; in the URL); the chosen ones can be issued or renewed now.
 */
export function AutoCertificatesPage() {
  const { t } = useTranslation(['autoCertificates', 'shell']);
  const search = useListSearch(FILTER_KEYS);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(autoCertificateRoutes.listAutoCertificates.request.query, search, FILTER_KEYS),
  };
  const list = useQuery(routeQuery('client', autoCertificateRoutes.listAutoCertificates, { query }));
  const [selected, setSelected] = useState<number[]>([]);
  const renew = useRouteMutation('client', autoCertificateRoutes.renewAutoCertificates, {
    input: () => ({ body: { ids: selected } }),
    invalidates: changes('autoCertificates'),
    success: () => t('renewStarted'),
    onSuccess: () => setSelected([]),
  });

  const columns: ListColumns<AutoCertificate> = [
    { title: t('domain'), dataIndex: 'domain' },
    { title: t('site'), dataIndex: 'siteName', ellipsis: true },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (value: AutoCertStatus) => <Tag color={STATUS_COLORS[value]}>{t(`statuses.${value}`)}</Tag>,
    },
    {
      title: t('notAfter'),
      dataIndex: 'notAfter',
      render: (value: string | null) => (value ? <DateTime value={value} /> : '-'),
    },
    {
      title: t('lastError'),
      dataIndex: 'lastError',
      ellipsis: true,
      render: (value: string) => (value ? <Typography.Text type="danger">{value}</Typography.Text> : '-'),
    },
    { title: t('failures'), dataIndex: 'failures', defaultHidden: true },
    {
      title: t('nextAttemptAt'),
      dataIndex: 'nextAttemptAt',
      render: (value: string) => <DateTime value={value} />,
    },
  ];

  const textFilter = (key: 'domain' | 'lastError') => (
    <Input.Search
      allowClear
      style={{ width: 260 }}
      defaultValue={search.filters[key] ?? ''}
      placeholder={t(`filters.${key}`)}
      aria-label={t(`filters.${key}`)}
      onSearch={(text) => search.setFilters({ [key]: text.trim() })}
    />
  );

  return (
    <>
      <PageTitle>{t('shell:menu.autoSSLManagement')}</PageTitle>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        {textFilter('domain')}
        <ChoiceFilter
          label={t('status')}
          value={search.filters.status}
          allLabel={t('filters.allStatuses')}
          options={AUTO_CERT_STATUSES.map((status) => ({ value: status, label: t(`statuses.${status}`) }))}
          onChange={(status) => search.setFilters({ status })}
        />
        {textFilter('lastError')}
      </Flex>
      <Button
        type="primary"
        disabled={selected.length === 0}
        loading={renew.isPending}
        onClick={() => renew.mutate(undefined)}
        style={{ marginBottom: 16 }}
      >
        {t('renew', { count: selected.length })}
      </Button>
      <ListTable<AutoCertificate>
        rowKey="id"
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        list={list}
        paging={search}
        emptyText={t('empty')}
      />
    </>
  );
}
