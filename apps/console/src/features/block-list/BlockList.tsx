import {
  BLOCK_CAUSES,
  type BlockCause,
  type BlockedIpEntry,
  blockListRoutes,
  clientSiteRoutes,
  FIREWALL_ACTION_LABELS,
  FIREWALL_ACTIONS,
  siteRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Form, Input, Select } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/account-context';
import { changes } from '../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../app/route-query';
import { localized, toast } from '../../app/toast';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { ListTable } from '../../components/ListTable';
import { actionsColumn } from '../../components/RowActions';
import { useLocale } from '../../i18n';
import type { ListSearch } from '../lists/use-list-search';
import { type BlockListKey, type IpFilterError, parseIpFilter, useBlockListSearch } from './block-list-search';

/** A row of either list: the operator's rows add the customer's account. */
export type BlockRow = BlockedIpEntry & { userAccount?: string };
export type BlockListTier = 'user' | 'client';

/**
 * The routes and write permission of each tier's block list. The operator's list route answers the
 * customer's rows plus `userAccount`, and its query adds `userID`; both are read through the
 * customer's route type here (the rows as {@link BlockRow}), so one table serves both.
 */
const TIER_ROUTES = {
  user: {
    list: blockListRoutes.listBlockedIps,
    unblock: blockListRoutes.unblockIps,
    write: 'user.firewall.write',
  },
  client: {
    list: blockListRoutes.listClientBlockedIps as unknown as typeof blockListRoutes.listBlockedIps,
    unblock: blockListRoutes.clientUnblockIps as unknown as typeof blockListRoutes.unblockIps,
    write: 'client.sites.write',
  },
} as const;

interface BlockListProps {
  tier: BlockListTier;
  /** Filters of this tier after the shared ones (the operator's customer and zone). */
  moreFilters?: (search: ListSearch<BlockListKey>) => ReactNode;
  /** Columns of this tier after the site (the operator's customer). */
  moreColumns?: ListColumns<BlockRow>;
}

/**
 * A block list (spec part 2 §3 "Blocked IPs"; cdnray-behaviour.md §6): the client addresses that a
 * rule with the DROP + Blacklist mode blocked, with the rule that did, the node and when the block
 * ends; paged, filtered and sorted on the server (all in the URL), unblocked one by one or chosen.
 * The customer's page and the operator's are this one list on their tier's routes.
 */
export function BlockList({ tier, moreFilters, moreColumns = [] }: BlockListProps) {
  const { t } = useTranslation(['blockList', 'common']);
  const { search, query } = useBlockListSearch(tier);
  const routes = TIER_ROUTES[tier];
  const list = useQuery(routeQuery(tier, routes.list, { query }));
  const canWrite = useCan(routes.write);
  const [selected, setSelected] = useState<number[]>([]);
  const unblock = useRouteMutation(tier, routes.unblock, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('blockedIps'),
    onSuccess: (_reply, ids) => {
      toast.success(t('unblocked', { count: ids.length }));
      setSelected((current) => current.filter((id) => !ids.includes(id)));
    },
  });
  const causeLabel = (cause: BlockCause) => t(`causes.${cause}`);

  const columns: ListColumns<BlockRow> = [
    { title: t('ip'), dataIndex: 'ip', maxWidth: 120, sorter: true, sortOrder: search.sortOrder('ip') },
    { title: t('site'), dataIndex: 'siteName', ellipsis: true, maxWidth: 100 },
    ...moreColumns,
    {
      title: t('cause'),
      dataIndex: 'cause',
      ellipsis: true,
      maxWidth: 130,
      // IP trust protection and escalated floods are settings, not rules: their blocks name none.
      render: (cause: BlockCause, row) =>
        cause === 'reputation' || cause === 'escalated'
          ? causeLabel(cause)
          : row.ruleID === null
            ? t('ruleDeleted', { cause: causeLabel(cause) })
            : t('rule', { cause: causeLabel(cause), id: row.ruleID }),
    },
    { title: t('node'), dataIndex: 'nodeName', ellipsis: true, maxWidth: 120, defaultHidden: true },
    {
      title: t('zone'),
      dataIndex: 'zoneName',
      ellipsis: true,
      maxWidth: 120,
      defaultHidden: true,
      render: (name: string) => name || '—',
    },
    {
      title: t('blockedAt'),
      dataIndex: 'blockedAt',
      // The operator's list has the customer's column too: at 1280 px its block time is chosen, not shown.
      defaultHidden: tier === 'client',
      sorter: true,
      sortOrder: search.sortOrder('blockedAt'),
      render: (at: string) => <DateTime value={at} />,
    },
    {
      title: t('expiresAt'),
      dataIndex: 'expiresAt',
      sorter: true,
      sortOrder: search.sortOrder('expiresAt'),
      render: (at: string) => <DateTime value={at} />,
    },
    ...(canWrite
      ? [
          actionsColumn<BlockRow>((row) => (
            <ConfirmButton
              confirm={t('unblockConfirm', { ip: row.ip })}
              pending={unblock.isPending && unblock.variables?.length === 1 && unblock.variables[0] === row.id}
              onConfirm={() => unblock.mutate([row.id])}
            >
              {t('unblock')}
            </ConfirmButton>
          )),
        ]
      : []),
  ];

  return (
    <>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <SiteFilter tier={tier} search={search} />
        {/* Keyed by the URL's addresses: back and forward show the filter of that page. */}
        <IpFilter key={search.all('ips').join(',')} search={search} />
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          aria-label={t('filters.causes')}
          placeholder={t('filters.anyCause')}
          value={search.all('causes')}
          options={BLOCK_CAUSES.map((cause) => ({ value: cause, label: causeLabel(cause) }))}
          onChange={(causes: string[]) => search.setFilters({ causes })}
        />
        {moreFilters?.(search)}
      </Flex>
      <ListTable<BlockRow>
        rowKey="id"
        columns={columns}
        toolbar={
          canWrite && (
            <ConfirmButton
              confirm={t('bulkUnblockConfirm', { count: selected.length })}
              disabled={selected.length === 0}
              pending={unblock.isPending && unblock.variables?.length === selected.length && selected.length > 1}
              onConfirm={() => unblock.mutate(selected)}
            >
              {t('bulkUnblock', { count: selected.length })}
            </ConfirmButton>
          )
        }
        rowSelection={
          canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) } : undefined
        }
        list={list}
        paging={search}
        emptyText={t('empty', { mode: localized(FIREWALL_ACTION_LABELS[FIREWALL_ACTIONS.dropBlacklist]) })}
      />
    </>
  );
}

/** The site filter: the customer's sites, or the operator's (of the chosen customer). */
function SiteFilter({ tier, search }: { tier: BlockListTier; search: ListSearch<BlockListKey> }) {
  const { t } = useTranslation('blockList');
  const canListUserSites = useCan('user.sites.read');
  const userID = search.filters.userID;
  const userSites = useQuery({
    ...routeQuery('user', siteRoutes.metaUserSites, {}),
    enabled: tier === 'user' && canListUserSites,
  });
  const clientSites = useQuery({
    ...routeQuery('client', clientSiteRoutes.metaSites, { query: userID === undefined ? {} : { userID } }),
    enabled: tier === 'client',
  });
  const sites = tier === 'user' ? userSites : clientSites;
  if (tier === 'user' && !canListUserSites) return null;
  const siteID = search.filters.siteID === undefined ? undefined : Number(search.filters.siteID);
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 200 }}
      aria-label={t('filters.site')}
      placeholder={t('filters.allSites')}
      value={Number.isInteger(siteID) ? siteID : undefined}
      loading={sites.isLoading}
      options={sites.data?.data.map((site) => ({ value: site.id, label: site.name }))}
      onChange={(id?: number) => search.setFilters({ siteID: id === undefined ? undefined : String(id) })}
    />
  );
}

/** The addresses to show, typed with commas or spaces between them; a wrong one is named and not sent. */
function IpFilter({ search }: { search: ListSearch<BlockListKey> }) {
  const { t } = useTranslation('blockList');
  const [locale] = useLocale();
  const [error, setError] = useState<IpFilterError | null>(null);
  const [text, setText] = useState(() => search.all('ips').join(', '));
  const message =
    error === null
      ? undefined
      : error.ip === undefined
        ? error.message
        : error.key === 'wrongFormat'
          ? t('badIp', { ip: error.ip })
          : t('ipProblem', { ip: error.ip, message: error.message });
  return (
    <Form.Item
      style={{ marginBottom: 0 }}
      validateStatus={error ? 'error' : undefined}
      help={message}
      htmlFor="block-list-ips"
    >
      <Input.Search
        id="block-list-ips"
        allowClear
        style={{ width: 280 }}
        placeholder={t('filters.ipsPlaceholder')}
        aria-label={t('filters.ips')}
        aria-invalid={error ? true : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        onSearch={(typed) => {
          const parsed = parseIpFilter(typed, locale);
          if (parsed.error) {
            setError(parsed.error);
            return;
          }
          setError(null);
          search.setFilters({ ips: parsed.ips });
        }}
      />
    </Form.Item>
  );
}
