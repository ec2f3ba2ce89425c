import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { MonitorGroupsTab } from './MonitorGroupsTab';
import { NodeStatesTab } from './NodeStatesTab';

/**
 * `/client/monitorManagement/monitorNodeGroup`: the monitor groups, and every initialised node with
 * what the groups say about it. The tab is `?tab=` in the URL; switching starts the other list afresh.
 */
export function MonitorGroupsPage() {
  const { t } = useTranslation(['monitoring', 'shell']);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'nodes' ? 'nodes' : 'groups';
  return (
    <>
      <PageTitle>{t('shell:menu.monitorNodeGroup')}</PageTitle>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key })}
        items={[
          { key: 'groups', label: t('tabs.groups'), children: <MonitorGroupsTab /> },
          { key: 'nodes', label: t('tabs.nodes'), children: <NodeStatesTab /> },
        ]}
        destroyOnHidden
      />
    </>
  );
}
