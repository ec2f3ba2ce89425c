import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CNAME_CHECK_MAX,
  DOMAIN_CERT_STATUS,
  DOMAIN_CNAME_STATUS,
  DOMAIN_SORT_FIELDS,
  DOMAIN_STATUS,
  domainCertStatusSchema,
  domainCnameStatusSchema,
  domainRoutes,
  type SiteDomain,
} from '@rampart/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Switch, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../../app/account-context';
import { routeQuery } from '../../../../app/route-query';
import { showApiError } from '../../../../app/show-error';
import { CopyButton } from '../../../../components/CopyButton';
import { DateTime } from '../../../../components/DateTime';
import { DeleteButton } from '../../../../components/DeleteButton';
import { ListTable } from '../../../../components/ListTable';
import { SearchBox } from '../../../../components/SearchBox';
import { saveResponse } from '../../../../features/download/save-file';
import { oneOf, useListSearch } from '../../../../features/lists/use-list-search';
import { callAuthedRaw } from '../../../../session/call-authed';
import { ADVANCED_FILTER_KEYS, DomainAdvancedFilter } from './DomainAdvancedFilter';
import { CopyToSiteModal, DomainTagsModal, UpstreamIPModal } from './DomainBatchModals';
import { DomainFormModal } from './DomainFormModal';
import { CreateFromDomainModal, DeleteByNamesModal, SimpleDomainsModal } from './DomainNameModals';
import { useDomainActions } from './domain-actions';

const ALL = 'all';
const CNAME_TAGS = {
  [DOMAIN_CNAME_STATUS.unchecked]: { color: 'default', key: 'unchecked' },
  [DOMAIN_CNAME_STATUS.verified]: { color: 'green', key: 'verified' },
  [DOMAIN_CNAME_STATUS.notPointing]: { color: 'orange', key: 'notPointing' },
} as const;

/** A site's domains, paged, searched, filtered and sorted on the server; add, edit, switch, delete. */
export function DomainsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['domains', 'common', 'modules']);
  const canWrite = useCan('user.domains.write');
  const search = useListSearch([
    'keywords',
    'status',
    'forceSSL',
    'cnameStatus',
    'sortBy',
    'orderBy',
    ...ADVANCED_FILTER_KEYS,
  ] as const);
  const { filters } = search;
  const tagFilter = search.all('tags');
  const certStatus = domainCertStatusSchema.safeParse(Number(filters.certStatus ?? 'x'));
  const cnameStatus = domainCnameStatusSchema.safeParse(Number(filters.cnameStatus ?? 'x'));
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    keywords: filters.keywords,
    status: filters.status === '1' ? 1 : filters.status === '0' ? 0 : undefined,
    forceSSL: oneOf(filters.forceSSL, ['true', 'false'] as const),
    sortBy: oneOf(filters.sortBy, DOMAIN_SORT_FIELDS),
    orderBy: oneOf(filters.orderBy, ['asc', 'desc'] as const),
    tags: tagFilter.length > 0 ? tagFilter : undefined,
    certStatus: certStatus.success ? certStatus.data : undefined,
    cnameStatuses: cnameStatus.success ? [cnameStatus.data] : undefined,
    createdAtStart: filters.createdAtStart,
    createdAtEnd: filters.createdAtEnd,
    updatedAtStart: filters.updatedAtStart,
    updatedAtEnd: filters.updatedAtEnd,
  };
  const domains = useQuery(routeQuery('user', domainRoutes.listDomains, { params: { siteId }, query }));
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<SiteDomain | 'new' | null>(null);
  const { setStatus, setForceSSL, checkCname, remove } = useDomainActions(siteId, (ids) =>
    setSelected((current) => current.filter((id) => !ids.includes(id))),
  );
  const busy = (ids: number[], id: number) => ids.length === 1 && ids[0] === id;
  const [tagging, setTagging] = useState<number[] | null>(null);
  const [copying, setCopying] = useState<number[] | null>(null);
  const [changingIP, setChangingIP] = useState<number[] | null>(null);
  const [byNames, setByNames] = useState<'simple' | 'from' | 'delete' | null>(null);
  const exportFile = useMutation({
    mutationFn: async (ids: number[]) =>
      saveResponse(
        await callAuthedRaw('user', domainRoutes.exportDomains, { params: { siteId }, body: { ids } }),
        `domains-site${siteId}.csv`,
      ),
    onError: (error) => showApiError(error),
  });

  const columns: TableColumnsType<SiteDomain> = [
    { title: t('name'), dataIndex: 'name', sorter: true, sortOrder: search.sortOrder('name') },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: number, domain) => (
        <Switch
          size="small"
          checked={status === DOMAIN_STATUS.enabled}
          disabled={!canWrite}
          aria-label={t('statusOf', { name: domain.name })}
          loading={setStatus.isPending && busy(setStatus.variables.domainIDs, domain.id)}
          onChange={(on) =>
            setStatus.mutate({ domainIDs: [domain.id], status: on ? DOMAIN_STATUS.enabled : DOMAIN_STATUS.disabled })
          }
        />
      ),
    },
    {
      title: t('origin'),
      key: 'upstream',
      render: (_, domain) => (
        <>
          {`${domain.scheme === 1 ? 'https' : 'http'}://${domain.upstreamURL}`}
          {domain.upstreamCount > 1 && <Tag style={{ marginInlineStart: 8 }}>{`+${domain.upstreamCount - 1}`}</Tag>}
        </>
      ),
    },
    {
      title: t('cname'),
      dataIndex: 'cname',
      render: (cname: string, domain) => {
        const state = CNAME_TAGS[domain.cnameStatus];
        return (
          <Space size="small" wrap>
            <Typography.Text code aria-label={t('cnameOf', { name: domain.name })}>
              {cname}
            </Typography.Text>
            <CopyButton text={cname} />
            <Tag color={state.color}>{t(`cnameStatuses.${state.key}`)}</Tag>
          </Space>
        );
      },
    },
    {
      title: t('tags'),
      dataIndex: 'tags',
      render: (tags: string[]) => (tags.length === 0 ? '—' : tags.map((tag) => <Tag key={tag}>{tag}</Tag>)),
    },
    {
      title: t('forceSSL'),
      dataIndex: 'forceSSL',
      render: (on: boolean, domain) => (
        <Switch
          size="small"
          checked={on}
          disabled={!canWrite}
          aria-label={t('forceSSLOf', { name: domain.name })}
          loading={setForceSSL.isPending && busy(setForceSSL.variables.domainIDs, domain.id)}
          onChange={(next) => setForceSSL.mutate({ domainIDs: [domain.id], forceSSL: next })}
        />
      ),
    },
    {
      title: t('certificate'),
      dataIndex: 'certificateName',
      render: (name: string, domain) =>
        domain.certificateID === 0 ? (
          '—'
        ) : (
          <Tag color={domain.certStatus === DOMAIN_CERT_STATUS.valid ? 'blue' : 'red'}>
            {domain.certStatus === DOMAIN_CERT_STATUS.valid ? name : `${name} (${t('certStatuses.expired')})`}
          </Tag>
        ),
    },
    {
      title: t('byNames.modules'),
      key: 'modules',
      render: (_, domain) => {
        const bound = [
          { type: 'customHeader', id: domain.customHeaderModuleID, name: domain.customHeaderModuleName },
          { type: 'urlRedirect', id: domain.urlRedirectModuleID, name: domain.urlRedirectModuleName },
          { type: 'cors', id: domain.corsID, name: domain.corsName },
          { type: 'proxyRewrite', id: domain.proxyRewriteModuleID, name: domain.proxyRewriteModuleName },
        ] as const;
        const tags = bound.filter((module) => module.id !== 0);
        if (tags.length === 0) return '—';
        return (
          <Space size={4} wrap aria-label={t('byNames.modulesOf', { name: domain.name })}>
            {tags.map((module) => (
              <Tag key={module.type}>{`${t(`modules:types.${module.type}`)}: ${module.name}`}</Tag>
            ))}
          </Space>
        );
      },
    },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      sorter: true,
      sortOrder: search.sortOrder('updatedAt'),
      render: (value: string) => <DateTime value={value} />,
    },
    // Editing needs the write key; a read-only caller sees no edit buttons (spec: the console shows only what it may use).
    ...(canWrite
      ? [
          {
            title: t('common:actions.title'),
            key: 'actions',
            render: (_: unknown, domain: SiteDomain) => (
              <Space>
                <Button size="small" onClick={() => setEditing(domain)}>
                  {t('common:actions.edit')}
                </Button>
                <DeleteButton
                  confirm={t('deleteConfirm', { name: domain.name })}
                  pending={remove.isPending && busy(remove.variables, domain.id)}
                  onConfirm={() => remove.mutate([domain.id])}
                />
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('filters.keywords')}
          value={filters.keywords}
          onSearch={(text) => search.setFilters({ keywords: text })}
        />
        <Select
          style={{ width: 160 }}
          aria-label={t('filters.status')}
          value={filters.status ?? ALL}
          options={[
            { value: ALL, label: t('filters.allStatuses') },
            { value: '1', label: t('enabled') },
            { value: '0', label: t('disabled') },
          ]}
          onChange={(value: string) => search.setFilters({ status: value === ALL ? undefined : value })}
        />
        <Select
          style={{ width: 180 }}
          aria-label={t('forceSSL')}
          value={filters.forceSSL ?? ALL}
          options={[
            { value: ALL, label: t('filters.forceSSLAll') },
            { value: 'true', label: t('filters.forceSSLOn') },
            { value: 'false', label: t('filters.forceSSLOff') },
          ]}
          onChange={(value: string) => search.setFilters({ forceSSL: value === ALL ? undefined : value })}
        />
        <Select
          style={{ width: 180 }}
          aria-label={t('cname')}
          value={filters.cnameStatus ?? ALL}
          options={[
            { value: ALL, label: t('filters.cnameAll') },
            ...Object.entries(CNAME_TAGS).map(([value, state]) => ({ value, label: t(`cnameStatuses.${state.key}`) })),
          ]}
          onChange={(value: string) => search.setFilters({ cnameStatus: value === ALL ? undefined : value })}
        />
        <DomainAdvancedFilter siteId={siteId} search={search} />
      </Flex>
      <Flex justify="space-between" style={{ marginBottom: 16 }}>
        <Space>
          {canWrite && (
            <>
              <Button
                disabled={selected.length === 0}
                onClick={() => setStatus.mutate({ domainIDs: selected, status: DOMAIN_STATUS.enabled })}
              >
                {t('bulk.enable', { count: selected.length })}
              </Button>
              <Button
                disabled={selected.length === 0}
                onClick={() => setStatus.mutate({ domainIDs: selected, status: DOMAIN_STATUS.disabled })}
              >
                {t('bulk.disable', { count: selected.length })}
              </Button>
              <DeleteButton
                label={t('bulk.delete', { count: selected.length })}
                confirm={t('bulk.deleteConfirm', { count: selected.length })}
                disabled={selected.length === 0}
                pending={remove.isPending && remove.variables === selected}
                onConfirm={() => remove.mutate(selected)}
              />
              <Button disabled={selected.length === 0} onClick={() => setTagging(selected)}>
                {t('bulk.tags', { count: selected.length })}
              </Button>
              <Button disabled={selected.length === 0} onClick={() => setCopying(selected)}>
                {t('bulk.copy', { count: selected.length })}
              </Button>
              <Button
                disabled={selected.length === 0 || selected.length > CNAME_CHECK_MAX}
                loading={checkCname.isPending}
                onClick={() => checkCname.mutate(selected)}
              >
                {t('bulk.checkCname', { count: selected.length })}
              </Button>
              <Button onClick={() => setChangingIP(selected)}>{t('bulk.changeIP')}</Button>
            </>
          )}
          <Button
            icon={<DownloadOutlined />}
            loading={exportFile.isPending}
            onClick={() => exportFile.mutate(selected)}
          >
            {selected.length === 0 ? t('bulk.exportAll') : t('bulk.export', { count: selected.length })}
          </Button>
        </Space>
        {canWrite && (
          <Space>
            <Button onClick={() => setByNames('delete')}>{t('byNames.deleteOpen')}</Button>
            <Button onClick={() => setByNames('from')}>{t('byNames.fromOpen')}</Button>
            <Button onClick={() => setByNames('simple')}>{t('byNames.simpleOpen')}</Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </Space>
        )}
      </Flex>
      <ListTable<SiteDomain>
        rowKey="id"
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        list={domains}
        paging={search}
        emptyText={t('empty')}
      />
      <DomainFormModal siteId={siteId} domain={editing} onClose={() => setEditing(null)} />
      <DomainTagsModal siteId={siteId} ids={tagging} onClose={() => setTagging(null)} onDone={() => setSelected([])} />
      <CopyToSiteModal siteId={siteId} ids={copying} onClose={() => setCopying(null)} />
      <UpstreamIPModal siteId={siteId} ids={changingIP} onClose={() => setChangingIP(null)} />
      <SimpleDomainsModal siteId={siteId} open={byNames === 'simple'} onClose={() => setByNames(null)} />
      <CreateFromDomainModal siteId={siteId} open={byNames === 'from'} onClose={() => setByNames(null)} />
      <DeleteByNamesModal
        siteId={siteId}
        open={byNames === 'delete'}
        onClose={() => {
          setByNames(null);
          setSelected([]);
        }}
      />
    </>
  );
}
