import { Button, Empty, Segmented, Spin } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListEmpty } from '../../../../components/ListEmpty';
import { FirewallRulesPanel } from './FirewallRulesPanel';
import { isL4Kind, L4_KIND_KEYS, type L4KindKey } from './firewall-kinds';
import { l4BlacklistKind, l4LimitConnKind, l4PositionKind, l4WhitelistKind } from './l4-kinds';
import { useSitePorts } from './l4-ports';

/** Each kind's panel, written out per kind (their rules and forms have types of their own). */
const PANELS: Record<L4KindKey, (siteId: number) => ReactNode> = {
  l4Whitelist: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={l4WhitelistKind} />,
  l4Blacklist: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={l4BlacklistKind} />,
  position: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={l4PositionKind} />,
  limitConn: (siteId) => <FirewallRulesPanel params={{ siteId }} kind={l4LimitConnKind} />,
};

/**
 * A layer-4 site's firewall (routes/firewall-l4.ts): its ports' whitelist and blacklist, positions
 * (countries) and connection limits, chosen in the sub-navigation and kept in the URL
 * (`?tab=firewall&kind=position`). Every rule names one of the site's ports: a site without ports
 * is told to add one first.
 */
export function L4FirewallTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('firewall');
  const [params, setParams] = useSearchParams();
  const asked = params.get('kind');
  const kind = isL4Kind(asked) ? asked : 'l4Whitelist';
  const ports = useSitePorts(siteId);

  if (ports.isPending) return <Spin />;
  if (ports.isError) return <ListEmpty text="" failed onRetry={() => ports.refetch()} />;
  if (ports.data.total === 0) {
    return (
      <Empty description={t('l4.noPorts')}>
        <Button type="primary" onClick={() => setParams({ tab: 'ports' })}>
          {t('l4.toPorts')}
        </Button>
      </Empty>
    );
  }
  return (
    <>
      <Segmented
        value={kind}
        style={{ marginBottom: 16 }}
        options={L4_KIND_KEYS.map((key) => ({ value: key, label: t(`kinds.${key}`) }))}
        onChange={(next) => setParams({ tab: 'firewall', kind: next })}
      />
      <Fragment key={kind}>{PANELS[kind](siteId)}</Fragment>
    </>
  );
}
