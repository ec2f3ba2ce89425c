import { type LuaAclRule, luaAclRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { ListColumns } from '../../../../components/FitTable';
import { pendingFor } from '../../../../features/lists/row-pending';
import { AclRuleFormModal } from './AclRuleFormModal';
import { MODULE_ITEMS_PAGE_SIZE, ModuleItemsDrawer } from './ModuleItemsDrawer';
import { type ListedModule, ruleInvalidates } from './module-types';

interface AclRulesDrawerProps {
  siteId: number;
  module: ListedModule | null;
  onClose: () => void;
}

/** One condition in a line: field, operator and what it compares with. */
function ConditionText({ condition }: { condition: LuaAclRule['conditions'][number] }) {
  const { t } = useTranslation('modules');
  const c = condition;
  const field = c.field === 'header' ? `${t('acl.fields.header')} ${c.name}` : t(`acl.fields.${c.field}`);
  const what =
    c.field === 'frequency'
      ? t('acl.frequencyText', { count: c.count, seconds: c.seconds })
      : c.values.length > 0
        ? c.values.join(', ')
        : `"${c.value}"`;
  return (
    <Tag style={{ whiteSpace: 'normal' }}>
      {`${field} ${c.negate ? `${t('acl.condition.negate')} ` : ''}${t(`acl.operators.${c.operator}`)} ${what}`}
    </Tag>
  );
}

/**
 * The rules of a Lua ACL module, paged on the server in the order the edge tries them (priority,
 * higher first): add, edit, turn on and off, delete.
 */
export function AclRulesDrawer({ siteId, module, onClose }: AclRulesDrawerProps) {
  const { t } = useTranslation('modules');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<LuaAclRule | 'new' | null>(null);
  const params = { siteId, moduleId: module?.id ?? 0 };
  const rules = useQuery({
    ...routeQuery('user', luaAclRoutes.listRules, { params, query: { page, pageSize: MODULE_ITEMS_PAGE_SIZE } }),
    enabled: module !== null,
  });
  const invalidates = ruleInvalidates('luaAcl');
  const enable = useRouteMutation('user', luaAclRoutes.enableRules, {
    input: ({ id, enabled }: { id: number; enabled: boolean }) => ({ params, body: { ids: [id], enabled } }),
    invalidates,
    success: () => toastText('setSuccess'),
  });
  const remove = useRouteMutation('user', luaAclRoutes.deleteRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates,
    success: () => toastText('removeSuccess'),
  });

  const columns: ListColumns<LuaAclRule> = [
    { title: t('acl.priority'), dataIndex: 'priority', maxWidth: 80 },
    { title: t('acl.name'), dataIndex: 'name', ellipsis: true },
    {
      title: t('acl.conditions'),
      key: 'conditions',
      // A rule's conditions are shown in their order and never reordered in place.
      render: (_, rule) => rule.conditions.map((c) => <ConditionText key={JSON.stringify(c)} condition={c} />),
    },
    {
      title: t('acl.action'),
      key: 'action',
      render: (_, rule) =>
        rule.action === 'redirect'
          ? `${t('acl.actions.redirect')} → ${rule.redirectUrl}`
          : t(`acl.actions.${rule.action}`),
    },
    {
      title: t('acl.enabled'),
      key: 'enabled',
      render: (_, rule) => (
        <Switch
          size="small"
          checked={rule.enabled}
          aria-label={t('acl.enableRule', { name: rule.name })}
          loading={pendingFor(enable, rule.id)}
          onChange={(enabled) => enable.mutate({ id: rule.id, enabled })}
        />
      ),
    },
  ];

  return (
    <ModuleItemsDrawer<LuaAclRule>
      open={module !== null}
      size={1000}
      title={t('rules.title', { name: module?.name ?? '' })}
      addLabel={t('acl.addRule')}
      onAdd={() => setEditing('new')}
      columns={columns}
      onEdit={setEditing}
      deleteConfirm={t('rules.deleteConfirm')}
      remove={remove}
      items={rules}
      page={page}
      onPage={setPage}
      emptyText={t('acl.empty')}
      onClose={onClose}
    >
      {module && (
        <AclRuleFormModal siteId={siteId} moduleId={module.id} rule={editing} onClose={() => setEditing(null)} />
      )}
    </ModuleItemsDrawer>
  );
}
