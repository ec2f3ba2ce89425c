import {
  type AnyRoute,
  type NginxTuning,
  type NginxTuningSection,
  OPERATOR_NGINX_SECTION_ROUTES,
  ZONE_NGINX_SECTION_ROUTES,
} from '@rampart/contract';
import { changes } from '../../../app/resource-changes';
import { callAuthed } from '../../../session';

/** Whose nginx settings a form edits: one zone's, or the operator's own (the defaults of every zone). */
export type NginxScope = { kind: 'zone'; zoneId: number } | { kind: 'operator' };

/** Replaces one section (PUT .../nginx/{section}). */
export function saveSection<S extends NginxTuningSection>(scope: NginxScope, section: S, value: NginxTuning[S]) {
  const body = { value } as { value: never };
  return scope.kind === 'zone'
    ? callAuthed('client', ZONE_NGINX_SECTION_ROUTES[section].put, { params: { zoneID: scope.zoneId }, body })
    : callAuthed('client', OPERATOR_NGINX_SECTION_ROUTES[section].put, { body });
}

/** Returns one section to the defaults (DELETE .../nginx/{section}). */
export function resetSection(scope: NginxScope, section: NginxTuningSection) {
  return scope.kind === 'zone'
    ? callAuthed('client', ZONE_NGINX_SECTION_ROUTES[section].delete, { params: { zoneID: scope.zoneId } })
    : callAuthed('client', OPERATOR_NGINX_SECTION_ROUTES[section].delete, {});
}

/** The reads a change to the scope's settings makes stale. */
export function nginxReads(scope: NginxScope): readonly AnyRoute[] {
  return changes(scope.kind === 'zone' ? 'zoneNginx' : 'operatorNginx');
}
