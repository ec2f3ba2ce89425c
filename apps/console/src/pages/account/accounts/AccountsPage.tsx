import { PlusOutlined } from '@ant-design/icons';
import {
  type ACCOUNT_SORT_FIELDS,
  ACCOUNT_STATUS_LABELS,
  accountRoutes,
  MANAGED_TIERS,
  type ManagedAccount,
  PAGE_SIZE_DEFAULT,
  type Tier,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Tabs, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { useTier } from '../../../app/tier-context';
import { localized, toastText } from '../../../app/toast';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { DateTime } from '../../../components/DateTime';
import { FitTable, type ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { AccessActions, AssignRoleModal, useSwitchUser } from './AccountAccess';
import { AccountFormModal } from './AccountFormModal';
import { AccountPasswordModal } from './AccountPasswordModal';
import { AssignZonesModal } from './AssignZonesModal';
import { authToast } from './account-texts';
import { CreatePasswordLinkModal } from './CreatePasswordLinkModal';

/** The actions column of an account row: its buttons wrap onto two lines within it. */
const ACTIONS_WIDTH = 300;

const STATUS_COLOR: Record<ManagedAccount['status'], string> = {
  normal: 'green',
  pause: 'orange',
  lock: 'red',
  expired: 'default',
};

type SortField = (typeof ACCOUNT_SORT_FIELDS)[number];

function isTab(console: Tier, value: string | undefined): value is Tier {
  return (MANAGED_TIERS[console] as readonly string[]).includes(value ?? '');
}

/**
 * `/{admin,client}/userManagement/users` and `/user/userManagement/usersList`: the accounts the
 * caller manages, one tab per kind (admin: operators, admin users; client: customers, sub-accounts;
 * user: sub-users), searched, sorted and paged in the URL; create (a password link is mailed), edit
 * and status, password, resend the link, second factor reset, delete; a row opens the accounts below it.
 */
export function AccountsPage() {
  const tier = useTier();
  const { t } = useTranslation(['accounts', 'common', 'shell']);
  const search = useListSearch(['auth', 'name', 'sortBy', 'orderBy']);
  const tabs = MANAGED_TIERS[tier] as readonly Tier[];
  const kind: Tier = isTab(tier, search.filters.auth) ? search.filters.auth : (tabs[0] as Tier);
  const accounts = useQuery(
    routeQuery(tier, accountRoutes.listAccounts, {
      params: { auth: tier },
      query: {
        auth: kind,
        page: search.page,
        pageSize: search.pageSize,
        ...urlQuery(accountRoutes.listAccounts.request.query, search, ['name', 'sortBy', 'orderBy']),
      },
    }),
  );
  const [editing, setEditing] = useState<ManagedAccount | 'new' | null>(null);
  const [password, setPassword] = useState<ManagedAccount | null>(null);
  const [roleOf, setRoleOf] = useState<ManagedAccount | null>(null);
  const [zonesOf, setZonesOf] = useState<ManagedAccount | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const switchUser = useSwitchUser(tier);
  const invalidates = changes('accounts');
  const remove = useRouteMutation(tier, accountRoutes.deleteAccount, {
    input: (account: ManagedAccount) => ({ params: { auth: tier }, body: { id: account.id } }),
    invalidates,
    success: () => authToast('removeAuthSuccess', kind),
  });
  const resend = useRouteMutation(tier, accountRoutes.resendAccountEmail, {
    input: (account: ManagedAccount) => ({ params: { auth: tier }, body: { id: account.id } }),
    invalidates: [],
    success: () => toastText('resendEmailSuccess'),
  });
  const newLink = useRouteMutation(tier, accountRoutes.accountCreatePasswordLink, {
    input: (account: ManagedAccount) => ({ params: { auth: tier }, body: { id: account.id } }),
    invalidates: [],
    onSuccess: (reply) => setLink(reply.data.link),
  });
  const reset2FA = useRouteMutation(tier, accountRoutes.resetAccountTwoFactor, {
    input: (account: ManagedAccount) => ({ params: { auth: tier }, body: { id: account.id } }),
    invalidates,
    success: () => t('reset2FASuccess'),
  });

  const actions = (account: ManagedAccount) => (
    <RowActions
      wrap
      onEdit={() => setEditing(account)}
      deleteConfirm={t('deleteConfirm', { account: account.account })}
      deleting={pendingFor(remove, account.id)}
      onDelete={() => remove.mutate(account)}
    >
      <Button size="small" onClick={() => setPassword(account)}>
        {t('actionPassword')}
      </Button>
      {/* A create-password link is only for an account that has no password yet (the server refuses others). */}
      {!account.hasPassword && (
        <ConfirmButton
          confirm={t('resendConfirm', { account: account.account })}
          pending={pendingFor(resend, account.id)}
          onConfirm={() => resend.mutate(account)}
        >
          {t('actionResend')}
        </ConfirmButton>
      )}
      {!account.hasPassword && (
        <ConfirmButton
          confirm={t('linkConfirm', { account: account.account })}
          pending={pendingFor(newLink, account.id)}
          onConfirm={() => newLink.mutate(account)}
        >
          {t('actionLink')}
        </ConfirmButton>
      )}
      {account.login2FAType !== 0 && (
        <ConfirmButton
          confirm={t('reset2FAConfirm', { account: account.account })}
          pending={pendingFor(reset2FA, account.id)}
          onConfirm={() => reset2FA.mutate(account)}
        >
          {t('actionReset2FA')}
        </ConfirmButton>
      )}
      <AccessActions tier={tier} account={account} onRole={setRoleOf} onZones={setZonesOf} switchUser={switchUser} />
    </RowActions>
  );

  const sortable = (field: SortField) => ({ sorter: true, sortOrder: search.sortOrder(field) });
  const columns: ListColumns<ManagedAccount> = [
    { title: t('account'), dataIndex: 'account', key: 'account', ...sortable('account') },
    { title: t('name'), dataIndex: 'name', key: 'name', ellipsis: true, ...sortable('name') },
    { title: t('email'), dataIndex: 'email', key: 'email', defaultHidden: true, ...sortable('email') },
    {
      title: t('status'),
      dataIndex: 'status',
      key: 'status',
      ...sortable('status'),
      render: (status: ManagedAccount['status']) => (
        <Tag color={STATUS_COLOR[status]}>{localized(ACCOUNT_STATUS_LABELS[status])}</Tag>
      ),
    },
    {
      title: t('password'),
      key: 'password',
      defaultHidden: true,
      render: (_, account) => (account.hasPassword ? t('passwordSet') : <Tag>{t('passwordPending')}</Tag>),
    },
    {
      title: t('login2FA'),
      key: 'login2FA',
      defaultHidden: true,
      render: (_, account) => (account.login2FAType === 0 ? t('login2FAOff') : t('login2FAOn')),
    },
    { title: t('subCount'), dataIndex: 'subCount', key: 'subCount', defaultHidden: true },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      defaultHidden: true,
      ...sortable('createdAt'),
      render: (value: string) => <DateTime value={value} />,
    },
    // The row's many buttons wrap inside a column of their own width.
    { ...actionsColumn(actions), width: ACTIONS_WIDTH },
  ];

  return (
    <>
      <PageTitle>{t(`shell:menu.${tier === 'user' ? 'usersList' : 'users'}`)}</PageTitle>
      {tabs.length > 1 && (
        <Tabs
          activeKey={kind}
          onChange={(key) => search.setFilters({ auth: key, name: undefined, sortBy: undefined, orderBy: undefined })}
          items={tabs.map((tab) => ({ key: tab, label: t(`tabs.${tier}.${tab}` as 'tabs.user.user') }))}
        />
      )}
      <Flex justify="space-between" style={{ marginBottom: 16 }} gap={8} wrap>
        <SearchBox
          key={kind}
          label={t('search')}
          value={search.filters.name}
          onSearch={(text) => search.setFilters({ name: text })}
          width={300}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      </Flex>
      <ListTable<ManagedAccount>
        rowKey="id"
        columns={columns}
        list={accounts}
        paging={search}
        emptyText={t('empty')}
        expandable={{
          rowExpandable: (account) => account.subCount > 0,
          expandedRowRender: (account) => <SubAccounts tier={tier} parent={account} actions={actions} />,
        }}
      />
      <AccountFormModal tier={tier} kind={kind} account={editing} onClose={() => setEditing(null)} onLink={setLink} />
      <CreatePasswordLinkModal link={link} onClose={() => setLink(null)} />
      <AccountPasswordModal tier={tier} account={password} onClose={() => setPassword(null)} />
      <AssignRoleModal tier={tier} account={roleOf} onClose={() => setRoleOf(null)} />
      {tier === 'client' && <AssignZonesModal account={zonesOf} onClose={() => setZonesOf(null)} />}
    </>
  );
}

/** The accounts directly below one (`account/{userId}/subs`), paged in place. */
function SubAccounts({
  tier,
  parent,
  actions,
}: {
  tier: Tier;
  parent: ManagedAccount;
  actions: (account: ManagedAccount) => ReactNode;
}) {
  const { t } = useTranslation(['accounts', 'common']);
  const [page, setPage] = useState(1);
  const subs = useQuery(
    routeQuery(tier, accountRoutes.listSubAccounts, {
      params: { auth: tier, userId: parent.id },
      query: { page, pageSize: PAGE_SIZE_DEFAULT },
    }),
  );
  return (
    <FitTable<ManagedAccount>
      size="small"
      rowKey="id"
      title={() => t('subsOf', { account: parent.account })}
      loading={subs.isFetching}
      dataSource={subs.data?.data ?? []}
      locale={{ emptyText: t('noSubs') }}
      pagination={{ current: page, pageSize: PAGE_SIZE_DEFAULT, total: subs.data?.total ?? 0, onChange: setPage }}
      columns={[
        { title: t('account'), dataIndex: 'account' },
        { title: t('name'), dataIndex: 'name', ellipsis: true },
        { title: t('email'), dataIndex: 'email', defaultHidden: true },
        {
          title: t('status'),
          dataIndex: 'status',
          render: (status: ManagedAccount['status']) => localized(ACCOUNT_STATUS_LABELS[status]),
        },
        { ...actionsColumn(actions), width: ACTIONS_WIDTH },
      ]}
    />
  );
}
