import { LinkOutlined, PlusOutlined } from '@ant-design/icons';
import type { SiteModuleType } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Flex, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { ListColumns } from '../../../../components/FitTable';
import { ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { SearchBox } from '../../../../components/SearchBox';
import { pendingFor } from '../../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../../features/lists/use-list-search';
import { WafEvents } from '../../../../features/waf/WafEvents';
import { AclRulesDrawer } from './AclRulesDrawer';
import { AddWafExclusionModal, prefillFromEvent, type WafExclusionPrefill } from './AddWafExclusionModal';
import { BindModuleModal } from './BindModuleModal';
import { ModuleFormModal } from './ModuleFormModal';
import { ModuleRulesDrawer } from './ModuleRulesDrawer';
import { ModuleSummary } from './ModuleSummary';
import { type ListedModule, MODULE_ROUTES, moduleInvalidates, RULE_ROUTES } from './module-types';
import { TokenAuthsDrawer } from './TokenAuthsDrawer';

/** A WAF exclusion typed from scratch (the WAF events offer one prefilled from the event). */
const NEW_EXCLUSION: WafExclusionPrefill = { ruleId: null, group: null, part: 'any', name: '', path: '' };

/** The site's modules of one type, paged and searched on the server: create, edit, rules, bind, delete. */
export function ModuleList({ siteId, type }: { siteId: number; type: SiteModuleType }) {
  const { t } = useTranslation(['modules', 'common']);
  const search = useListSearch(['name'] as const);
  const params = { siteId };
  const routes = MODULE_ROUTES[type];
  const ruleRoutes = RULE_ROUTES[type];
  const list = useQuery(
    routeQuery('user', routes.list, {
      params,
      query: { page: search.page, pageSize: search.pageSize, ...urlQuery(routes.list.request.query, search, ['name']) },
    }),
  );
  const [editing, setEditing] = useState<ListedModule | 'new' | null>(null);
  const [binding, setBinding] = useState<number | null>(null);
  const [rulesOf, setRulesOf] = useState<ListedModule | null>(null);
  const [excluding, setExcluding] = useState<{ moduleId: number; prefill: WafExclusionPrefill } | null>(null);
  const [eventsOf, setEventsOf] = useState<ListedModule | null>(null);
  const remove = useRouteMutation('user', routes.delete, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: moduleInvalidates(type),
    success: () => toastText('removeSuccess'),
  });
  const modules = (list.data?.data ?? []) as ListedModule[];

  const columns: ListColumns<ListedModule> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('summary'), key: 'summary', render: (_, m) => <ModuleSummary type={type} module={m} /> },
    { title: t('domains'), dataIndex: 'domainIDs', render: (ids: number[]) => ids.length },
    actionsColumn((m) => (
      <RowActions
        wrap
        before={
          <>
            {(ruleRoutes || type === 'luaAcl' || type === 'tokenAuth') && (
              <Button size="small" onClick={() => setRulesOf(m)}>
                {t('rules.open', { count: m.ruleCount ?? 0 })}
              </Button>
            )}
            {type === 'waf' && (
              <>
                <Button size="small" onClick={() => setEventsOf(m)}>
                  {t('waf.events')}
                </Button>
                <Button size="small" onClick={() => setExcluding({ moduleId: m.id, prefill: NEW_EXCLUSION })}>
                  {t('waf.exclusion.add')}
                </Button>
              </>
            )}
            <Button size="small" onClick={() => setBinding(m.id)}>
              {t('bind.open')}
            </Button>
          </>
        }
        onEdit={() => setEditing(m)}
        deleteConfirm={t('deleteConfirm', { name: m.name })}
        deleting={pendingFor(remove, m.id)}
        onDelete={() => remove.mutate(m.id)}
      />
    )),
  ];

  return (
    <>
      <Flex justify="space-between" gap="small" wrap style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('search')}
          value={search.filters.name}
          onSearch={(text) => search.setFilters({ name: text })}
        />
        <Space>
          <Button icon={<LinkOutlined />} onClick={() => setBinding(0)}>
            {t('bind.open')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('create')}
          </Button>
        </Space>
      </Flex>
      <ListTable<ListedModule> rowKey="id" columns={columns} list={list} paging={search} emptyText={t('empty')} />
      <ModuleFormModal siteId={siteId} type={type} module={editing} onClose={() => setEditing(null)} />
      <BindModuleModal
        siteId={siteId}
        type={type}
        open={binding !== null}
        modules={modules}
        initialModule={binding ?? 0}
        onClose={() => setBinding(null)}
      />
      {type === 'waf' && (
        <Drawer
          open={eventsOf !== null}
          onClose={() => setEventsOf(null)}
          title={t('waf.eventsOf', { name: eventsOf?.name ?? '' })}
          width={1100}
          destroyOnHidden
        >
          {eventsOf && (
            <WafEvents
              siteId={siteId}
              domainIds={eventsOf.domainIDs}
              onExclude={(record) => setExcluding({ moduleId: eventsOf.id, prefill: prefillFromEvent(record) })}
            />
          )}
        </Drawer>
      )}
      {type === 'waf' && (
        <AddWafExclusionModal
          siteId={siteId}
          moduleId={excluding?.moduleId ?? 0}
          prefill={excluding?.prefill ?? null}
          onDone={() => setExcluding(null)}
        />
      )}
      {type === 'luaAcl' && <AclRulesDrawer siteId={siteId} module={rulesOf} onClose={() => setRulesOf(null)} />}
      {type === 'tokenAuth' && <TokenAuthsDrawer siteId={siteId} module={rulesOf} onClose={() => setRulesOf(null)} />}
      {ruleRoutes && (
        <ModuleRulesDrawer
          siteId={siteId}
          type={type}
          routes={ruleRoutes}
          module={rulesOf}
          onClose={() => setRulesOf(null)}
        />
      )}
    </>
  );
}
