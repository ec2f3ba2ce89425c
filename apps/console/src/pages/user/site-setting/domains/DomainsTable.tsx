import { DOMAIN_CERT_STATUS, DOMAIN_STATUS, type DomainState, type SiteDomain } from '@rampart/contract';
import { Button, Flex, Space, Switch, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../../components/DateTime';
import type { ListColumns } from '../../../../components/FitTable';
import { type ListQuery, ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { DomainStateBadges } from '../../../../features/domains/DomainStateBadges';
import { pendingFor } from '../../../../features/lists/row-pending';
import { CnameCell } from './CnameCell';
import { DomainProofCell } from './DomainProofPanel';
import type { useDomainActions } from './domain-actions';
import type { DomainSearch } from './domain-list';

interface DomainsTableProps {
  siteId: number;
  canWrite: boolean;
  search: DomainSearch;
  list: ListQuery<SiteDomain>;
  /** The page's domains' node counts and origin health, by id (useDomainStates). */
  states: ReadonlyMap<number, DomainState>;
  actions: ReturnType<typeof useDomainActions>;
  selected: number[];
  onSelect: (ids: number[]) => void;
  onEdit: (domain: SiteDomain) => void;
  /** Opens the domain's anti-referer and anti-header lists; absent without the firewall read key. */
  onAccess?: (domain: SiteDomain) => void;
}

/** One row a domain: status and HTTPS switches, origin, CNAME and its state, ownership proof, tags, certificate, bound modules. */
export function DomainsTable({
  siteId,
  canWrite,
  search,
  list,
  states,
  actions,
  selected,
  onSelect,
  onEdit,
  onAccess,
}: DomainsTableProps) {
  const { t } = useTranslation(['domains', 'common', 'modules', 'firewall']);
  const { setStatus, setForceSSL, remove } = actions;
  const busy = (ids: number[], id: number) => ids.length === 1 && ids[0] === id;

  // By default the name, the status switch with the serving state, the origin and the CNAME fit
  // 1280 px; force HTTPS, tags, certificate, modules and the update time are chosen.
  const columns: ListColumns<SiteDomain> = [
    { title: t('name'), dataIndex: 'name', maxWidth: 130, sorter: true, sortOrder: search.sortOrder('name') },
    {
      // The switch and where the domain stands for the edge, side by side: one column, so the
      // origin and the CNAME target fit 1280 px beside them.
      title: t('state.column'),
      dataIndex: 'status',
      render: (status: number, domain) => (
        // Wraps within its width: the serving tag and the state badges go under the switch rather than
        // widen the list (a table sized to its content takes a cell's one-line width otherwise).
        <Flex gap={8} align="center" wrap style={{ maxWidth: 180 }}>
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
          <DomainProofCell siteId={siteId} domain={domain} canWrite={canWrite} />
          <DomainStateBadges name={domain.name} state={states.get(domain.id)} />
        </Flex>
      ),
    },
    {
      title: t('origin'),
      key: 'upstream',
      ellipsis: true,
      maxWidth: 120,
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
      render: (_, domain) => <CnameCell domain={domain} />,
    },
    {
      title: t('tags'),
      dataIndex: 'tags',
      defaultHidden: true,
      render: (tags: string[]) => (tags.length === 0 ? '—' : tags.map((tag) => <Tag key={tag}>{tag}</Tag>)),
    },
    {
      title: t('forceSSL'),
      dataIndex: 'forceSSL',
      defaultHidden: true,
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
      title: t('autoSSLState.column'),
      key: 'autoSSL',
      defaultHidden: true,
      render: (_, domain) =>
        domain.autoSSLStatus ? (
          <Tooltip title={domain.autoSSLError || undefined}>
            <Tag
              color={domain.autoSSLStatus === 'valid' ? 'green' : domain.autoSSLStatus === 'failed' ? 'red' : 'default'}
            >
              {t(`autoSSLState.${domain.autoSSLStatus}`)}
            </Tag>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      title: t('certificate'),
      dataIndex: 'certificateName',
      defaultHidden: true,
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
      defaultHidden: true,
      render: (_, domain) => {
        const bound = [
          { type: 'customHeader', id: domain.customHeaderModuleID, name: domain.customHeaderModuleName },
          { type: 'urlRedirect', id: domain.urlRedirectModuleID, name: domain.urlRedirectModuleName },
          { type: 'cors', id: domain.corsID, name: domain.corsName },
          { type: 'proxyRewrite', id: domain.proxyRewriteModuleID, name: domain.proxyRewriteModuleName },
          { type: 'luaAcl', id: domain.luaAclModuleID, name: domain.luaAclModuleName },
          { type: 'tokenAuth', id: domain.tokenAuthModuleID, name: domain.tokenAuthModuleName },
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
      defaultHidden: true,
      sorter: true,
      sortOrder: search.sortOrder('updatedAt'),
      render: (value: string) => <DateTime value={value} />,
    },
    // Editing needs the write key; a read-only caller sees no edit buttons (spec: the console shows only what it may use).
    ...(canWrite
      ? [
          actionsColumn((domain: SiteDomain) => (
            <RowActions
              onEdit={() => onEdit(domain)}
              deleteConfirm={t('deleteConfirm', { name: domain.name })}
              deleting={pendingFor(remove, domain.id)}
              onDelete={() => remove.mutate([domain.id])}
            >
              {onAccess && (
                <Button size="small" onClick={() => onAccess(domain)}>
                  {t('firewall:domainAccess')}
                </Button>
              )}
            </RowActions>
          )),
        ]
      : []),
  ];

  return (
    <ListTable<SiteDomain>
      rowKey="id"
      columns={columns}
      rowSelection={{ selectedRowKeys: selected, onChange: (keys) => onSelect(keys as number[]) }}
      list={list}
      paging={search}
      emptyText={t('empty')}
    />
  );
}
