import { ClusterOutlined } from '@ant-design/icons';
import { Button, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { InitializedNodesTab } from './InitializedNodesTab';
import { JoinNodeModal } from './JoinNodeModal';
import { UninitializedNodesTab } from './UninitializedNodesTab';

const TABS = ['uninitialized', 'initialized'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/client/nodeManage/nodesList`: nodes waiting to be placed in a zone (with Initialize) and the
 * initialised ones with what their agents report. Both lists reload every NODE_LIST_REFRESH_MS.
 * The tab is `?tab=` in the URL; switching tabs starts the other list on its first page.
 */
export function NodesListPage() {
  const { t } = useTranslation(['nodes', 'shell']);
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'initialized' ? 'initialized' : 'uninitialized';
  const [joining, setJoining] = useState(false);

  return (
    <>
      <PageTitle>{t('shell:menu.nodesList')}</PageTitle>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key })}
        tabBarExtraContent={
          <Button icon={<ClusterOutlined />} onClick={() => setJoining(true)}>
            {t('join.open')}
          </Button>
        }
        items={[
          { key: 'uninitialized', label: t('tabs.uninitialized'), children: <UninitializedNodesTab /> },
          { key: 'initialized', label: t('tabs.initialized'), children: <InitializedNodesTab /> },
        ]}
        destroyOnHidden
      />
      <JoinNodeModal open={joining} onClose={() => setJoining(false)} />
    </>
  );
}
