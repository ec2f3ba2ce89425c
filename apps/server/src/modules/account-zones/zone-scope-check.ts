import { scopeRefIds, zoneScopeRefsOf } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { ZoneScopeCheck } from '../../platform/http/bind-route.js';
import type { AccountZonesRepository } from './account-zones.repository.js';

/**
 * The binder's zone-scope check, from the contract's table of zone and node references: a zone id
 * outside the caller's scope, or a node of the operator placed outside it, is 101018 — the answer
 * for another operator's zone, so a restricted sub-account cannot tell the two apart. Ids that are
 * no node of the operator at all are left to the handler (its own not-found answer).
 */
export function createZoneScopeCheck(repo: AccountZonesRepository): ZoneScopeCheck {
  return async (route, caller, input) => {
    const scope = caller.zoneScope;
    if (scope === null) return;
    const refs = zoneScopeRefsOf(route);
    const zoneIds = refs.zones.flatMap((ref) => scopeRefIds(ref, input));
    if (zoneIds.some((id) => !scope.has(id))) throw new AppError(101018);
    const nodeIds = refs.nodes.flatMap((ref) => scopeRefIds(ref, input));
    if (nodeIds.length === 0) return;
    // Only an operator's sub-accounts are restricted, and every one of them has its operator.
    if (caller.operatorId === null) throw new AppError(101018);
    if ((await repo.nodesOutside(caller.operatorId, nodeIds, scope)).length > 0) throw new AppError(101018);
  };
}
