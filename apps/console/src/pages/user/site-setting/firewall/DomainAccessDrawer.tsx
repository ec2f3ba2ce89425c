import type { SiteDomain } from '@rampart/contract';
import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowDrawer } from '../../../../components/RowDrawer';
import { FirewallRulesPanel } from './FirewallRulesPanel';
import { DOMAIN_LIST_KEYS, type DomainListKey } from './firewall-kinds';
import { antiHeaderKind, antiRefererKind } from './header-kinds';

/** A domain's anti-referer and anti-header lists (routes/domain-access.ts), one at a time. */
function DomainAccessLists({ siteId, domainId }: { siteId: number; domainId: number }) {
  const { t } = useTranslation('firewall');
  const [list, setList] = useState<DomainListKey>('antiReferer');
  const params = { siteId, domainId };
  return (
    <>
      <Segmented
        value={list}
        style={{ marginBottom: 16 }}
        options={DOMAIN_LIST_KEYS.map((key) => ({ value: key, label: t(`kinds.${key}`) }))}
        onChange={setList}
      />
      {list === 'antiReferer' ? (
        <FirewallRulesPanel key={list} params={params} kind={antiRefererKind} />
      ) : (
        <FirewallRulesPanel key={list} params={params} kind={antiHeaderKind} />
      )}
    </>
  );
}

/** The access rules of the domain in `domain` (null: closed), from the domain list's row. */
export function DomainAccessDrawer({
  siteId,
  domain,
  onClose,
}: {
  siteId: number;
  domain: SiteDomain | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('firewall');
  return (
    <RowDrawer row={domain} size={960} title={(row) => t('domainAccessTitle', { name: row.name })} onClose={onClose}>
      {(row) => <DomainAccessLists siteId={siteId} domainId={row.id} />}
    </RowDrawer>
  );
}
