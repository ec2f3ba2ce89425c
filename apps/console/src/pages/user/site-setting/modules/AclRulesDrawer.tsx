import { type LuaAclRule, luaAclRoutes } from '@rampart/contract';
import { Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { ListColumns } from '../../../../components/FitTable';
import { pendingFor } from '../../../../features/lists/row-pending';
import { AclRuleFormModal } from './AclRuleFormModal';
import { ModuleItemsDrawer } from './ModuleItemsDrawer';
import type { ListedModule } from './module-types';
import { useModuleItems } from './use-module-items';

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
  const { params, invalidates, editing, closeForm, drawer } = useModuleItems<LuaAclRule>(
    siteId,
    module,
    'luaAcl',
    luaAclRoutes,
    onClose,
  );
  const enable = useRouteMutation('user', luaAclRoutes.enableRules, {
    input: ({ id, enabled }: { id: number; enabled: boolean }) => ({ params, body: { ids: [id], enabled } }),
    invalidates,
    success: () => toastText('setSuccess'),
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
      {...drawer}
      size={1000}
      title={t('rules.title', { name: module?.name ?? '' })}
      addLabel={t('acl.addRule')}
      columns={columns}
      deleteConfirm={t('rules.deleteConfirm')}
      emptyText={t('acl.empty')}
    >
      {module && <AclRuleFormModal siteId={siteId} moduleId={module.id} item={editing} onClose={closeForm} />}
    </ModuleItemsDrawer>
  );
}
