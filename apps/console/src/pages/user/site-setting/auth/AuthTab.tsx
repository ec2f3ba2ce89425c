import { PlusOutlined } from '@ant-design/icons';
import { type AuthGroup, type AuthRule, authGroupRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { AuthGroupFormModal } from './AuthGroupFormModal';
import { AuthRuleFormModal } from './AuthRuleFormModal';
import { CredentialsDrawer } from './CredentialsDrawer';

const PAGE_SIZE = 10;

/**
 * A site's auth groups and the URL rules that bind them (spec part 2 §7 "Auth groups";
 * docs/decisions.md "Auth groups"): both lists paged on the server; a group's credentials in a drawer.
 */
export function AuthTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('authGroups');
  const [groupPage, setGroupPage] = useState(1);
  const [rulePage, setRulePage] = useState(1);
  const [group, setGroup] = useState<AuthGroup | 'new' | null>(null);
  const [rule, setRule] = useState<AuthRule | 'new' | null>(null);
  const [credentials, setCredentials] = useState<AuthGroup | null>(null);
  const params = { siteId };
  const groups = useQuery(
    routeQuery('user', authGroupRoutes.listGroups, { params, query: { page: groupPage, pageSize: PAGE_SIZE } }),
  );
  const rules = useQuery(
    routeQuery('user', authGroupRoutes.listRules, { params, query: { page: rulePage, pageSize: PAGE_SIZE } }),
  );
  const removeGroup = useRouteMutation('user', authGroupRoutes.deleteGroups, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('authGroups'),
    success: () => toastText('removeSuccess'),
  });
  const removeRule = useRouteMutation('user', authGroupRoutes.deleteRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: changes('authRules'),
    success: () => toastText('removeSuccess'),
  });

  const groupColumns: ListColumns<AuthGroup> = [
    { title: t('group.name'), dataIndex: 'name', ellipsis: true },
    { title: t('group.remark'), dataIndex: 'remark', ellipsis: true },
    {
      title: t('group.credentials'),
      key: 'credentials',
      render: (_, g) => (
        <Button type="link" onClick={() => setCredentials(g)}>
          {t('group.counts', { basic: g.basicCount, key: g.keyCount, jwt: g.jwtCount })}
        </Button>
      ),
    },
    { title: t('group.rules'), dataIndex: 'ruleCount', maxWidth: 90 },
    actionsColumn(
      (g) => (
        <RowActions
          onEdit={() => setGroup(g)}
          deleteConfirm={t('group.deleteConfirm')}
          deleting={pendingFor(removeGroup, g.id)}
          onDelete={() => removeGroup.mutate(g.id)}
        />
      ),
      '',
    ),
  ];
  const ruleColumns: ListColumns<AuthRule> = [
    { title: t('rule.priority'), dataIndex: 'priority', maxWidth: 80 },
    { title: t('rule.name'), dataIndex: 'name', ellipsis: true },
    { title: t('rule.path'), key: 'path', render: (_, r) => `${t(`rule.matches.${r.match}`)} ${r.path}` },
    { title: t('rule.group'), dataIndex: 'groupName', ellipsis: true },
    {
      title: t('rule.enabled'),
      key: 'enabled',
      render: (_, r) => (r.enabled ? <Tag color="green">{t('rule.on')}</Tag> : <Tag>{t('rule.off')}</Tag>),
    },
    actionsColumn(
      (r) => (
        <RowActions
          onEdit={() => setRule(r)}
          deleteConfirm={t('rule.deleteConfirm')}
          deleting={pendingFor(removeRule, r.id)}
          onDelete={() => removeRule.mutate(r.id)}
        />
      ),
      '',
    ),
  ];

  return (
    <>
      <Card
        title={t('group.title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setGroup('new')}>
            {t('group.add')}
          </Button>
        }
        style={{ marginBottom: 16 }}
      >
        <FitTable<AuthGroup>
          rowKey="id"
          size="small"
          columns={groupColumns}
          dataSource={groups.data?.data ?? []}
          loading={groups.isLoading}
          pagination={{
            current: groupPage,
            pageSize: PAGE_SIZE,
            total: groups.data?.total ?? 0,
            onChange: setGroupPage,
          }}
          locale={{ emptyText: t('group.empty') }}
        />
      </Card>
      <Card
        title={t('rule.title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRule('new')}>
            {t('rule.add')}
          </Button>
        }
      >
        <FitTable<AuthRule>
          rowKey="id"
          size="small"
          columns={ruleColumns}
          dataSource={rules.data?.data ?? []}
          loading={rules.isLoading}
          pagination={{ current: rulePage, pageSize: PAGE_SIZE, total: rules.data?.total ?? 0, onChange: setRulePage }}
          locale={{ emptyText: t('rule.empty') }}
        />
      </Card>
      <AuthGroupFormModal siteId={siteId} group={group} onClose={() => setGroup(null)} />
      <AuthRuleFormModal siteId={siteId} rule={rule} onClose={() => setRule(null)} />
      <CredentialsDrawer siteId={siteId} group={credentials} onClose={() => setCredentials(null)} />
    </>
  );
}
