import { type SiteModuleType, WAF_GROUPS } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { TagList } from '../../../../components/TagList';
import type { ListedModule } from './module-types';

/** One line on what a module does, per type. */
export function ModuleSummary({ type, module }: { type: SiteModuleType; module: ListedModule }) {
  const { t } = useTranslation('modules');
  switch (type) {
    case 'customHeader': {
      const headers = (module.headers ?? []) as { type: string }[];
      return (
        <>
          {t('headers.count', {
            request: headers.filter((h) => h.type === 'request').length,
            response: headers.filter((h) => h.type === 'response').length,
          })}
        </>
      );
    }
    case 'cors':
      return <TagList items={(module.origins ?? []) as string[]} />;
    case 'proxyRewrite':
      return (
        <>
          {module.hostHeader ? `${t('rewrite.host', { host: module.hostHeader as string })} · ` : ''}
          {t('rules.count', { count: module.ruleCount ?? 0 })}
        </>
      );
    case 'waf':
      return (
        <>
          {t(`waf.modes.${module.mode as 'block'}`)} ·{' '}
          {t('waf.groupCount', { count: ((module.groups ?? []) as string[]).length, total: WAF_GROUPS.length })} ·{' '}
          {t('waf.exclusionCount', { count: ((module.exclusions ?? []) as unknown[]).length })}
        </>
      );
    default:
      return <>{t('rules.count', { count: module.ruleCount ?? 0 })}</>;
  }
}
