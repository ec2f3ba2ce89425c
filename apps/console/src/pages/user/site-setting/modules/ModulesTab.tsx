import { SITE_MODULE_TYPES, type SiteModuleType } from '@rampart/contract';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ModuleList } from './ModuleList';

/** The site's modules, one inner tab per type (`?module=` in the URL). */
export function ModulesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('modules');
  const [params, setParams] = useSearchParams();
  const asked = params.get('module');
  const active: SiteModuleType = (SITE_MODULE_TYPES as readonly string[]).includes(asked ?? '')
    ? (asked as SiteModuleType)
    : 'customHeader';
  return (
    <Tabs
      activeKey={active}
      onChange={(key) => setParams({ tab: 'modules', module: key })}
      destroyOnHidden
      items={SITE_MODULE_TYPES.map((type) => ({
        key: type,
        label: t(`types.${type}`),
        children: <ModuleList siteId={siteId} type={type} />,
      }))}
    />
  );
}
