import { Tabs } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../../app/account-context';
import { PageTitle } from '../../../components/PageTitle';
import { AccountVerifyTab } from './AccountVerifyTab';
import { FrequencyTab } from './FrequencyTab';
import { OutgoingUrlTab, RestrictCidrsTab } from './ListSettingTabs';

/**
 * The page's tabs, in order: one entry each (its key is the `tab` query value and its title's
 * `systemSettings:tabs.<key>` text). Another system setting adds its key and its tab here.
 */
type TabKey = 'outgoingURL' | 'accountVerify' | 'restrictGroupCIDRs' | 'frequency';
export const SYSTEM_SETTING_TABS: readonly { key: TabKey; Tab: ComponentType<{ canWrite: boolean }> }[] = [
  { key: 'outgoingURL', Tab: OutgoingUrlTab },
  { key: 'accountVerify', Tab: AccountVerifyTab },
  { key: 'restrictGroupCIDRs', Tab: RestrictCidrsTab },
  { key: 'frequency', Tab: FrequencyTab },
];

/** `/client/systemManagement/systemSetting` (spec part 1 §2 `systemSetting`): the operator's system settings. */
export function SystemSettingPage() {
  const { t } = useTranslation(['systemSettings', 'shell']);
  const canWrite = useCan('client.settings.write');
  const [search, setSearch] = useSearchParams();
  const active = search.get('tab') ?? SYSTEM_SETTING_TABS[0]?.key;
  return (
    <>
      <PageTitle>{t('shell:menu.systemSetting')}</PageTitle>
      <Tabs
        activeKey={active}
        onChange={(key) => setSearch({ tab: key }, { replace: true })}
        destroyOnHidden
        items={SYSTEM_SETTING_TABS.map(({ key, Tab }) => ({
          key,
          label: t(`tabs.${key}`),
          children: <Tab canWrite={canWrite} />,
        }))}
      />
    </>
  );
}
