import { type DnsCname, dnsCnameRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Input, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { useDnsLines } from '../zones/use-dns-lines';

const KEYS = ['keyword'] as const;

/**
 * Under the CNAME domain: what Rampart publishes (`cname/meta`: the provider's zone, the TTL and the
 * DNS lines it answers on, named in the interface language) and the CNAME records of the operator's
 * domains (`dns/cnames`), searchable, each with a switch that turns its publication off or on.
 */
export function CnameRecordsSection() {
  const { t } = useTranslation('cnameSetting');
  const canWrite = useCan('client.settings.write');
  const { nameOf } = useDnsLines();
  const search = useListSearch(KEYS);
  const meta = useQuery(routeQuery('client', dnsCnameRoutes.getCnameMeta, {}));
  const list = useQuery(
    routeQuery('client', dnsCnameRoutes.listDnsCnames, {
      query: { page: search.page, pageSize: search.pageSize, keyword: search.filters.keyword },
    }),
  );
  const toggle = useRouteMutation('client', dnsCnameRoutes.setDnsCnames, {
    input: (v: { id: number; disabled: boolean }) => ({ body: { ids: [v.id], disabled: v.disabled } }),
    invalidates: changes('dnsCnames'),
    success: () => toastText('setSuccess'),
  });
  const info = meta.data?.data;

  const columns: ListColumns<DnsCname> = [
    { title: t('records.domain'), dataIndex: 'domain', ellipsis: true },
    {
      title: t('records.target'),
      dataIndex: 'target',
      // Long names end in "…" (shown whole on hover) rather than widen the table past the page.
      ellipsis: true,
      maxWidth: 260,
    },
    { title: t('records.site'), dataIndex: 'siteName', ellipsis: true },
    {
      title: t('records.published'),
      key: 'published',
      render: (_: unknown, row: DnsCname) => (
        <Space>
          <Switch
            size="small"
            aria-label={t('records.publishOf', { domain: row.domain })}
            checked={!row.disabled}
            disabled={!canWrite}
            loading={pendingFor(toggle, row.id)}
            onChange={(on) => toggle.mutate({ id: row.id, disabled: !on })}
          />
          {!row.enabled && <Tag>{t('records.domainOff')}</Tag>}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 32 }}>
        {t('records.title')}
      </Typography.Title>
      {info && (
        <Descriptions
          column={1}
          bordered
          size="small"
          style={{ maxWidth: 720, marginBottom: 16 }}
          items={[
            {
              key: 'zone',
              label: t('records.zone'),
              children: info.zone ?? <Typography.Text type="warning">{t('records.noProvider')}</Typography.Text>,
            },
            { key: 'ttl', label: t('records.ttl'), children: info.ttl ?? '-' },
            {
              key: 'lines',
              label: t('records.lines'),
              children: info.lines.length > 0 ? info.lines.map((id) => <Tag key={id}>{nameOf(id)}</Tag>) : '-',
            },
          ]}
        />
      )}
      <ListToolbar style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('records.search')}
          aria-label={t('records.search')}
          defaultValue={search.filters.keyword}
          onSearch={(text) => search.setFilters({ keyword: text.trim() })}
        />
      </ListToolbar>
      <ListTable<DnsCname>
        rowKey="id"
        columns={columns}
        list={list}
        paging={search}
        emptyText={search.filters.keyword ? t('records.noMatch') : t('records.empty')}
      />
    </>
  );
}
