import { PlusOutlined } from '@ant-design/icons';
import { type Role, roleRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { useTier } from '../../../app/tier-context';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { RoleFormModal } from './RoleFormModal';

/**
 * `/{user,client}/userManagement/roles` (spec part 1 §2, §6): the caller's roles, searched by name
 * and paged in the URL; create and edit (name, remark, keys picked from the meta roles), delete
 * (its holders are left without a role). Roles are given to sub-accounts on the users page.
 */
export function RolesPage() {
  const tier = useTier();
  const { t } = useTranslation(['roles', 'common', 'shell']);
  const canWrite = useCan('roles.write');
  const search = useListSearch(['name']);
  const roles = useQuery(
    routeQuery(tier, roleRoutes.listRoles, {
      params: { auth: tier },
      query: {
        page: search.page,
        pageSize: search.pageSize,
        ...urlQuery(roleRoutes.listRoles.request.query, search, ['name']),
      },
    }),
  );
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const remove = useRouteMutation(tier, roleRoutes.deleteRole, {
    input: (role: Role) => ({ params: { auth: tier, roleId: role.id } }),
    invalidates: changes('roles'),
    success: () => toastText('removeRoleSuccess'),
  });

  const columns: ListColumns<Role> = [
    { title: t('name'), dataIndex: 'name', key: 'name' },
    { title: t('remark'), dataIndex: 'remark', key: 'remark', ellipsis: true },
    {
      title: t('permissions'),
      key: 'permissions',
      render: (_, role) => t('permissionCount', { count: role.permissions.length }),
    },
    { title: t('accounts'), dataIndex: 'accounts', key: 'accounts' },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      render: (value: string) => <DateTime value={value} />,
    },
  ];
  if (canWrite) {
    columns.push(
      actionsColumn((role) => (
        <RowActions
          onEdit={() => setEditing(role)}
          deleteConfirm={t('deleteConfirm', { name: role.name })}
          deleting={pendingFor(remove, role.id)}
          onDelete={() => remove.mutate(role)}
        />
      )),
    );
  }

  return (
    <>
      <PageTitle>{t('shell:menu.roles')}</PageTitle>
      <Flex justify="space-between" style={{ marginBottom: 16 }} gap={8} wrap>
        <SearchBox
          label={t('search')}
          value={search.filters.name}
          onSearch={(text) => search.setFilters({ name: text })}
        />
        {canWrite && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('create')}
          </Button>
        )}
      </Flex>
      <ListTable<Role> rowKey="id" columns={columns} list={roles} paging={search} emptyText={t('empty')} />
      <RoleFormModal tier={tier} role={editing} onClose={() => setEditing(null)} />
    </>
  );
}
