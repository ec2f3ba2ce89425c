import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FirewallRulesPanel } from './FirewallRulesPanel';
import { FIREWALL_KIND_KEYS, isFirewallKind } from './firewall-kinds';

/**
 * The site's firewall: one list per kind (whitelist, blacklist), chosen in the sub-navigation and
 * kept in the URL (`?tab=firewall&kind=blacklist`; another kind starts on its first page).
 */
export function FirewallTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('firewall');
  const [params, setParams] = useSearchParams();
  const asked = params.get('kind');
  const kind = isFirewallKind(asked) ? asked : 'whitelist';

  return (
    <>
      <Segmented
        value={kind}
        style={{ marginBottom: 16 }}
        options={FIREWALL_KIND_KEYS.map((key) => ({ value: key, label: t(`kinds.${key}`) }))}
        onChange={(next) => setParams({ tab: 'firewall', kind: next })}
      />
      {/* A kind of its own: its selection and dialog do not carry over to another. */}
      <FirewallRulesPanel key={kind} siteId={siteId} kind={kind} />
    </>
  );
}
