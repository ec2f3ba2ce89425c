import { wafRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Segmented } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../../../app/account-context';
import { routeQuery } from '../../../../app/route-query';
import { AbuseIPPanel } from './AbuseIPPanel';
import { antiCCKind } from './anti-cc-kind';
import { FirewallRulesPanel } from './FirewallRulesPanel';
import { FIREWALL_KIND_KEYS, type FirewallKindKey, isFirewallKind } from './firewall-kinds';
import { intervalLimitKind, secondLimitKind } from './frequency-kinds';
import { geoKind } from './geo-kind';
import { headerKind } from './header-kinds';
import { blacklistKind, whitelistKind } from './list-kinds';
import { userAgentKind } from './user-agent-kind';

/**
 * Each kind's panel. Written out per kind: each kind's rules, body and form values have types of
 * their own, which one panel element over every kind could not carry.
 */
const PANELS: Record<FirewallKindKey, (siteId: number) => ReactNode> = {
  whitelist: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={whitelistKind} />,
  blacklist: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={blacklistKind} />,
  abuseIP: (siteId) => <AbuseIPPanel siteId={siteId} />,
  geo: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={geoKind} />,
  header: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={headerKind} />,
  userAgent: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={userAgentKind} />,
  intervalLimit: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={intervalLimitKind} />,
  secondLimit: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={secondLimitKind} />,
  antiCC: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={antiCCKind} />,
};

/**
 * The site's firewall: one list per kind (whitelist, blacklist, IP trust protection — a setting, not
 * a list —, geo rules, header rules, user-agent
 * rules, interval and per-second frequency limits, anti-CC), chosen in the sub-navigation and kept in the URL
 * (`?tab=firewall&kind=blacklist`; another kind starts on its first page).
 */
export function FirewallTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('firewall');
  const [params, setParams] = useSearchParams();
  const asked = params.get('kind');
  const kind = isFirewallKind(asked) ? asked : 'whitelist';
  // The product's "advanced firewall": Lua ACL and WAF modules, which check a request after these rules.
  const canSeeModules = useCan(wafRoutes.advExists.access.permission);
  const advanced = useQuery({
    ...routeQuery('user', wafRoutes.advExists, { params: { siteId } }),
    enabled: canSeeModules,
  });

  return (
    <>
      {advanced.data?.data === true && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('advanced.exists')}
          action={
            <Button size="small" type="link" onClick={() => setParams({ tab: 'modules' })}>
              {t('advanced.open')}
            </Button>
          }
        />
      )}
      <Segmented
        value={kind}
        style={{ marginBottom: 16 }}
        options={FIREWALL_KIND_KEYS.map((key) => ({ value: key, label: t(`kinds.${key}`) }))}
        onChange={(next) => setParams({ tab: 'firewall', kind: next })}
      />
      {/* A kind of its own: its selection and dialog do not carry over to another. */}
      <Fragment key={kind}>{PANELS[kind](siteId)}</Fragment>
    </>
  );
}
