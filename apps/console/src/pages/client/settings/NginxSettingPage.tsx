import { OPERATOR_NGINX_SECTION_ROUTES as r } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { PageTitle } from '../../../components/PageTitle';
import { NginxSections } from '../zones/NginxSections';

/**
 * `/client/systemManagement/nginxSetting`: the operator's nginx worker, http, stream and custom
 * settings, the defaults of every zone's nodes; a zone with its own settings on overrides them.
 */
export function NginxSettingPage() {
  const { t } = useTranslation(['zoneSettings', 'shell']);
  const worker = useQuery(routeQuery('client', r.worker.get, {}));
  const http = useQuery(routeQuery('client', r.http.get, {}));
  const stream = useQuery(routeQuery('client', r.stream.get, {}));
  const custom = useQuery(routeQuery('client', r.custom.get, {}));
  const loaded = worker.data && http.data && stream.data && custom.data;
  return (
    <>
      <PageTitle>{t('shell:menu.nginxSetting')}</PageTitle>
      <Alert type="info" showIcon title={t('operatorNginx.hint')} style={{ marginBottom: 16 }} />
      {loaded ? (
        <NginxSections
          scope={{ kind: 'operator' }}
          value={{ worker: worker.data.data, http: http.data.data, stream: stream.data.data, custom: custom.data.data }}
        />
      ) : (
        <Spin />
      )}
    </>
  );
}
