import type { NginxTuning } from '@rampart/contract';
import { Collapse } from 'antd';
import { useTranslation } from 'react-i18next';
import { NginxCustomForm } from './NginxCustomForm';
import { NginxNumbersForm } from './NginxNumbersForm';
import type { NginxScope } from './nginx-section-calls';

/** The worker, http and stream sections and the custom directives of a zone's or the operator's nginx settings. */
export function NginxSections({ scope, value }: { scope: NginxScope; value: NginxTuning }) {
  const { t } = useTranslation(['zoneSettings']);
  return (
    <Collapse
      defaultActiveKey={['worker']}
      items={[
        ...(['worker', 'http', 'stream'] as const).map((section) => ({
          key: section,
          label: t(`nginx.sections.${section}`),
          children: <NginxNumbersForm scope={scope} section={section} value={value[section]} />,
        })),
        {
          key: 'custom',
          label: t('nginx.sections.custom'),
          children: <NginxCustomForm scope={scope} value={value.custom} />,
        },
      ]}
    />
  );
}
