import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../../app/account-context';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { SelectionDelete } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { useListSearch, useLocalPaging } from '../../../../features/lists/use-list-search';
import { FirewallRuleFormModal } from './FirewallRuleFormModal';
import { FirewallRulesTable } from './FirewallRulesTable';
import type { FirewallKind, FirewallRuleRow, RuleParams } from './firewall-kinds';

/** No filters: the list has page and page size in the URL only. */
const NO_FILTERS: readonly never[] = [];

/**
 * The rules of one firewall kind of a site (or of a domain's list, with `params.domainId`), paged on the server (page and size in the URL), with
 * create, edit and delete (also several at once) for a caller with the write key.
 */
export function FirewallRulesPanel<B extends object, R extends FirewallRuleRow, V extends object>({
  params,
  kind,
}: {
  params: RuleParams;
  kind: FirewallKind<B, R, V>;
}) {
  const { t } = useTranslation('firewall');
  const canWrite = useCan('user.firewall.write');
  const urlSearch = useListSearch(NO_FILTERS);
  const localPaging = useLocalPaging();
  // A domain's lists are shown in a drawer over the domain list, whose page the URL keeps.
  const search = params.domainId === undefined ? urlSearch : localPaging;
  const { routes } = kind;
  const list = useQuery(
    routeQuery('user', routes.list, { params, query: { page: search.page, pageSize: search.pageSize } }),
  );
  const [editing, setEditing] = useState<R | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const remove = useRouteMutation('user', routes.delete, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates: changes(kind.resource),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });

  const toolbar = canWrite && (
    <Space wrap>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t('create')}
      </Button>
      <SelectionDelete
        count={selected.length}
        label={t('bulkDelete', { count: selected.length })}
        confirm={t('bulkDeleteConfirm', { count: selected.length })}
        pending={remove.isPending && remove.variables === selected}
        onDelete={() => remove.mutate(selected)}
      />
    </Space>
  );

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`hints.${kind.key}`)}</Typography.Paragraph>
      <FirewallRulesTable<R>
        columns={kind.columns({ t, params, canWrite })}
        emptyText={t(`empty.${kind.key}`)}
        list={list}
        search={search}
        canWrite={canWrite}
        toolbar={toolbar}
        selected={selected}
        onSelect={setSelected}
        onEdit={setEditing}
        onDelete={(id) => remove.mutate([id])}
        deleting={(id) => pendingFor(remove, id)}
      />
      {canWrite && (
        <FirewallRuleFormModal params={params} kind={kind} rule={editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
