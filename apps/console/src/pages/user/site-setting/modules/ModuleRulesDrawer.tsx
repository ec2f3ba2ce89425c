import type { SiteModuleType } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Drawer, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { createdText, toastText } from '../../../../app/toast';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { type ListedModule, type RuleRoutes, ruleInvalidates } from './module-types';

interface Rule {
  id: number;
  matchType: 'exact' | 'prefix' | 'regex';
  source: string;
  target: string;
  statusCode?: number;
  keepQuery?: boolean;
}
type RuleValues = Omit<Rule, 'id'>;

const RULES_SHOWN = 100;

interface ModuleRulesDrawerProps {
  siteId: number;
  type: SiteModuleType;
  routes: RuleRoutes;
  module: ListedModule | null;
  onClose: () => void;
}

/** The rules of a redirect or rewrite module: the first 100 in the order they were added, add and delete. */
export function ModuleRulesDrawer({ siteId, type, routes, module, onClose }: ModuleRulesDrawerProps) {
  const { t } = useTranslation('modules');
  const [form] = Form.useForm<RuleValues>();
  const redirect = type === 'urlRedirect';
  const params = { siteId, moduleId: module?.id ?? 0 };
  const rules = useQuery({
    ...routeQuery('user', routes.listRules, {
      params,
      query: { page: 1, pageSize: RULES_SHOWN },
    }),
    enabled: module !== null,
  });
  const invalidates = ruleInvalidates(type);
  const add = useRouteMutation('user', routes.addRules, {
    input: (values: RuleValues) => ({ params, body: { items: [values] } as never }),
    invalidates,
    success: createdText,
    // `items.0.source` → the form's `source`.
    form: { instance: form, fields: (path) => (path[0] === 'items' ? path[2] : undefined) },
    onSuccess: () => form.resetFields(),
  });
  const remove = useRouteMutation('user', routes.deleteRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates,
    success: () => toastText('removeSuccess'),
  });

  const columns: ListColumns<Rule> = [
    {
      title: t('rules.matchType'),
      dataIndex: 'matchType',
      render: (m: Rule['matchType']) => t(`rules.matchTypes.${m}`),
    },
    { title: t('rules.source'), dataIndex: 'source', ellipsis: true },
    { title: t('rules.target'), dataIndex: 'target', ellipsis: true },
    ...(redirect
      ? [
          { title: t('rules.statusCode'), dataIndex: 'statusCode' },
          {
            title: t('rules.keepQuery'),
            dataIndex: 'keepQuery',
            render: (keep: boolean) => (keep ? '✓' : ''),
          },
        ]
      : []),
    actionsColumn(
      (rule) => (
        <RowActions
          deleteConfirm={t('rules.deleteConfirm')}
          deleting={pendingFor(remove, rule.id)}
          onDelete={() => remove.mutate(rule.id)}
        />
      ),
      '',
    ),
  ];

  return (
    <Drawer open={module !== null} size={880} title={t('rules.title', { name: module?.name ?? '' })} onClose={onClose}>
      <Form<RuleValues>
        form={form}
        layout="inline"
        initialValues={{
          matchType: 'exact',
          source: '',
          target: '',
          ...(redirect ? { statusCode: 301, keepQuery: true } : {}),
        }}
        onFinish={(values) => add.mutate(values)}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="matchType" label={t('rules.matchType')}>
          <Select
            style={{ width: 170 }}
            options={(['exact', 'prefix', 'regex'] as const).map((m) => ({
              value: m,
              label: t(`rules.matchTypes.${m}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="source" label={t('rules.source')}>
          <Input />
        </Form.Item>
        <Form.Item name="target" label={t('rules.target')}>
          <Input />
        </Form.Item>
        {redirect && (
          <>
            <Form.Item name="statusCode" label={t('rules.statusCode')}>
              <Select
                style={{ width: 90 }}
                options={[301, 302, 307, 308].map((c) => ({ value: c, label: String(c) }))}
              />
            </Form.Item>
            <Form.Item name="keepQuery" valuePropName="checked">
              <Checkbox>{t('rules.keepQuery')}</Checkbox>
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('rules.add')}
        </Button>
      </Form>
      <FitTable<Rule>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={(rules.data?.data ?? []) as Rule[]}
        loading={rules.isLoading}
        pagination={false}
        locale={{ emptyText: t('rules.empty') }}
        footer={() => t('rules.count', { count: rules.data?.total ?? 0 })}
      />
    </Drawer>
  );
}
