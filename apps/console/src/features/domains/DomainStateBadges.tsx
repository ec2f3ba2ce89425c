import { CloudServerOutlined } from '@ant-design/icons';
import { type DomainState, domainStateRoutes, ORIGIN_HEALTH_MINUTES } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';

const byId = (states: readonly DomainState[] | undefined) => new Map((states ?? []).map((s) => [s.id, s]));

/** The states of the domains on a customer's list page (routes/domain-states.ts), by id; empty while loading or failed. */
export function useDomainStates(siteId: number, domains: readonly { id: number }[] | undefined) {
  const ids = (domains ?? []).map((d) => String(d.id));
  const states = useQuery({
    ...routeQuery('user', domainStateRoutes.domainStates, { params: { siteId }, query: { ids } }),
    enabled: ids.length > 0,
  });
  return byId(states.data?.data);
}

/** The same for the operator's list of its customers' domains (any of its sites). */
export function useClientDomainStates(domains: readonly { id: number }[] | undefined) {
  const ids = (domains ?? []).map((d) => String(d.id));
  const states = useQuery({
    ...routeQuery('client', domainStateRoutes.clientDomainStates, { query: { ids } }),
    enabled: ids.length > 0,
  });
  return byId(states.data?.data);
}

/**
 * Beside the serving tag: for a served domain, by how many of its zone's nodes (and how many nodes
 * report no plane, so nobody can tell); for any domain whose origin failed most of its recent
 * requests, a red "origin down" with the counts on hover.
 */
export function DomainStateBadges({ name, state }: { name: string; state: DomainState | undefined }) {
  const { t } = useTranslation('domains');
  if (!state) return null;
  const counts = { serving: state.nodesServing, total: state.nodesOfZone };
  const all = state.nodesServing > 0 && state.nodesServing === state.nodesOfZone && state.nodesWithoutPlane === 0;
  const explain = [
    t('state.nodesExplain', counts),
    state.nodesWithoutPlane > 0 ? t('state.withoutPlane', { count: state.nodesWithoutPlane }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      {state.served && (
        <Tooltip title={explain}>
          <Tag
            icon={<CloudServerOutlined />}
            color={all ? 'green' : 'gold'}
            aria-label={t('state.nodesOf', { name })}
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
          <Tag color="red" aria-label={t('state.originOf', { name })} tabIndex={0} style={{ marginInlineEnd: 0 }}>
            {t('state.originDown')}
          </Tag>
        </Tooltip>
      )}
    </>
  );
}
