import { FORCE_SSL_REDIRECT_CODES, type Zone, type ZoneSettings, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Select, Spin, Switch, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { RowDrawer } from '../../../components/RowDrawer';
import { ZoneChallengeWorkPanel } from './ZoneChallengeWorkPanel';
import { ZoneL4ProtectionPanel } from './ZoneL4ProtectionPanel';
import { ZoneLimitsPanel } from './ZoneLimitsPanel';
import { ZoneNginxPanel } from './ZoneNginxPanel';
import { ZonePortsPanel } from './ZonePortsPanel';
import { ZonePreheatPanel } from './ZonePreheatPanel';
import { ZoneResourcePanel } from './ZoneResourcePanel';
import { ZoneTrustPanel } from './ZoneTrustPanel';

/**
 * A zone's settings in tabs (trusted proxies among them: ZoneTrustPanel; layer-4 protection: ZoneL4ProtectionPanel): listen settings (HTTP/2, HTTP/3 shown off and locked: the nodes'
 * nginx has no QUIC, the force-SSL redirect code, the per-client-IP limits), listen ports, nginx settings, cache preheat, and
 * what the zone carries (resource).
 * Each is saved as it changes; the zone's nodes pick them up with their next snapshot. Closed when
 * `zone` is null.
 */
export function ZoneSettingsDrawer({ zone, onClose }: { zone: Zone | null; onClose: () => void }) {
  const { t } = useTranslation(['zones', 'zoneSettings']);
  return (
    <RowDrawer row={zone} title={(zone) => t('settings.title', { name: zone.name })} size={720} onClose={onClose}>
      {(zone) => (
        <Tabs
          items={[
            { key: 'listen', label: t('zoneSettings:tabs.listen'), children: <ZoneSettingsForm zone={zone} /> },
            { key: 'ports', label: t('zoneSettings:tabs.ports'), children: <ZonePortsPanel zoneId={zone.id} /> },
            { key: 'nginx', label: t('zoneSettings:tabs.nginx'), children: <ZoneNginxPanel zoneId={zone.id} /> },
            { key: 'trust', label: t('zoneSettings:tabs.trust'), children: <ZoneTrustPanel zoneId={zone.id} /> },
            { key: 'l4', label: t('zoneSettings:tabs.l4'), children: <ZoneL4ProtectionPanel zoneId={zone.id} /> },
            { key: 'preheat', label: t('zoneSettings:tabs.preheat'), children: <ZonePreheatPanel zoneId={zone.id} /> },
            {
              key: 'resource',
              label: t('zoneSettings:tabs.resource'),
              children: <ZoneResourcePanel zoneId={zone.id} />,
            },
          ]}
        />
      )}
    </RowDrawer>
  );
}

function ZoneSettingsForm({ zone }: { zone: Zone }) {
  const { t } = useTranslation(['zones']);
  const params = { zoneID: zone.id };
  const settings = useQuery(routeQuery('client', zoneRoutes.getZoneSettings, { params }));
  const options = { invalidates: changes('zones'), success: () => toastText('setSuccess') };
  const http2 = useRouteMutation('client', zoneRoutes.setZoneHttp2, {
    ...options,
    input: (enable: boolean) => ({ params, body: { enable } }),
  });
  const redirect = useRouteMutation('client', zoneRoutes.setZoneForceSSLRedirectCode, {
    ...options,
    input: (code: ZoneSettings['forceSSLRedirectCode']) => ({ params, body: { code } }),
  });

  if (!settings.data) return <Spin />;
  const current = settings.data.data;
  return (
    <>
      <Descriptions
        column={1}
        bordered
        items={[
          {
            key: 'http2',
            label: t('settings.http2'),
            children: (
              <Switch
                aria-label={t('settings.http2')}
                checked={current.http2}
                loading={http2.isPending}
                onChange={(enable) => http2.mutate(enable)}
              />
            ),
          },
          {
            key: 'http3',
            label: t('settings.http3'),
            children: <Switch aria-label={t('settings.http3')} checked={current.http3} disabled />,
          },
          {
            key: 'forceSSLRedirectCode',
            label: t('settings.forceSSLRedirectCode'),
            children: (
              <Select
                aria-label={t('settings.forceSSLRedirectCode')}
                style={{ width: 240 }}
                value={current.forceSSLRedirectCode}
                loading={redirect.isPending}
                onChange={(code) => redirect.mutate(code)}
                options={FORCE_SSL_REDIRECT_CODES.map((code) => ({
                  value: code,
                  label: t(`settings.redirectCodes.c${code}`),
                }))}
              />
            ),
          },
        ]}
      />
      <Alert style={{ marginTop: 16 }} type="info" showIcon title={t('settings.http3Unsupported')} />
      <Alert style={{ marginTop: 8 }} type="info" showIcon title={t('settings.appliesToNodes')} />
      <ZoneLimitsPanel zoneId={zone.id} current={current} />
      <ZoneChallengeWorkPanel zoneId={zone.id} current={current} />
    </>
  );
}
