import { CloudServerOutlined } from '@ant-design/icons';
import { type DomainState, domainStateRoutes, ORIGIN_HEALTH_MINUTES, type SiteDomain } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import { domainServing } from './domain-list';

/** The states of the domains on the list's page (routes/domain-states.ts), by id; empty while loading or failed. */
export function useDomainStates(siteId: number, domains: readonly SiteDomain[] | undefined): Map<number, DomainState> {
  const ids = (domains ?? []).map((d) => String(d.id));
  const states = useQuery({
    ...routeQuery('user', domainStateRoutes.domainStates, { params: { siteId }, query: { ids } }),
    enabled: ids.length > 0,
  });
  return new Map((states.data?.data ?? []).map((s) => [s.id, s]));
}

/**
 * Beside the serving tag: for a served domain, by how many of its zone's nodes; for any domain
 * whose origin failed most of its recent requests, a red "origin down" with the counts on hover.
 */
export function DomainStateBadges({ domain, state }: { domain: SiteDomain; state: DomainState | undefined }) {
  const { t } = useTranslation('domains');
  if (!state) return null;
  const counts = { serving: state.nodesServing, total: state.nodesOfZone };
  const served = domainServing(domain) === 'served';
  return (
    <>
      {served && (
        <Tooltip title={t('state.nodesExplain', counts)}>
          <Tag
            icon={<CloudServerOutlined />}
            color={state.nodesServing > 0 && state.nodesServing === state.nodesOfZone ? 'green' : 'gold'}
            aria-label={t('state.nodesOf', { name: domain.name })}
            tabIndex={0}
            style={{ marginInlineEnd: 0 }}
          >
            {t('state.nodes', counts)}
          </Tag>
        </Tooltip>
      )}
      {state.originDown && (
        <Tooltip
          title={t('state.originExplain', {
            minutes: ORIGIN_HEALTH_MINUTES,
            errors: state.originErrors,
            requests: state.originRequests,
          })}
        >
          <Tag
            color="red"
            aria-label={t('state.originOf', { name: domain.name })}
            tabIndex={0}
            style={{ marginInlineEnd: 0 }}
          >
            {t('state.originDown')}
          </Tag>
        </Tooltip>
      )}
    </>
  );
}
