import { dnsLineRoutes, groupLineRoutes, type Locale, localeFromLanguageTag } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import { dnsLines } from './group-lines.presenter.js';
import type { GroupLinesService } from './group-lines.service.js';

/**
 * Language of the line names: the `language` header (en_US, zh_CN, zh_TW), else Accept-Language,
 * else zh_TW, the spec's default for this call (other messages default to English).
 */
function lineLocale(request: FastifyRequest): Locale {
  const header = request.headers.language;
  const tag = (Array.isArray(header) ? header[0] : header) || request.headers['accept-language'];
  return localeFromLanguageTag(tag, 'zh_TW');
}

export function bindGroupLineRoutes(binder: Binder, lines: GroupLinesService, nodes: NodesService): void {
  const scope = async (caller: Caller | null, zoneId: number) => {
    return { operatorId: await nodes.operatorOf(requireCaller(caller).accountId), zoneId };
  };
  const ok = { data: true as const };
  binder.bind(dnsLineRoutes.listDnsLines, async (_input, { request }) => ({ data: dnsLines(lineLocale(request)) }));

  const r = groupLineRoutes;
  binder.bind(r.lineNodeNums, async ({ params }, { caller }) => ({
    data: await lines.nodeNums(await scope(caller, params.zoneID), params.groupID),
  }));

  binder.bind(r.listLineNodes, async ({ params, query }, { caller }) =>
    lines.lineNodes(await scope(caller, params.zoneID), params.groupID, params.lineID, query),
  );
  binder.bind(r.listLineVirtualNodes, async ({ params, query }, { caller }) =>
    lines.lineVirtualNodes(await scope(caller, params.zoneID), params.groupID, params.lineID, query),
  );
  binder.bind(r.lineNodeCandidates, async ({ params, query }, { caller }) =>
    lines.nodeCandidates(await scope(caller, params.zoneID), params.groupID, params.lineID, query),
  );
  binder.bind(r.lineVirtualNodeCandidates, async ({ params, query }, { caller }) =>
    lines.virtualNodeCandidates(await scope(caller, params.zoneID), params.groupID, params.lineID, query),
  );
  binder.bind(r.addLineNodes, async ({ params, body }, { caller, request }) => {
    const s = await scope(caller, params.zoneID);
    await lines.add('nodes', s, params.groupID, params.lineID, body.nodeIDs, requestLocale(request));
    return ok;
  });
  binder.bind(r.addLineVirtualNodes, async ({ params, body }, { caller, request }) => {
    const s = await scope(caller, params.zoneID);
    await lines.add('virtualNodes', s, params.groupID, params.lineID, body.virtualNodeIDs, requestLocale(request));
    return ok;
  });
  binder.bind(r.removeLineNodes, async ({ params, body }, { caller }) => {
    await lines.remove('nodes', await scope(caller, params.zoneID), params.groupID, params.lineID, body.nodeIDs);
    return ok;
  });
  binder.bind(r.removeLineVirtualNodes, async ({ params, body }, { caller }) => {
    const s = await scope(caller, params.zoneID);
    await lines.remove('virtualNodes', s, params.groupID, params.lineID, body.virtualNodeIDs);
    return ok;
  });
  binder.bind(r.moveLineNodes, async ({ params, body }, { caller }) => {
    const s = await scope(caller, params.zoneID);
    await lines.move('nodes', s, params.groupID, params.lineID, body.toLine, body.nodeIDs);
    return ok;
  });
  binder.bind(r.moveLineVirtualNodes, async ({ params, body }, { caller }) => {
    const s = await scope(caller, params.zoneID);
    await lines.move('virtualNodes', s, params.groupID, params.lineID, body.toLine, body.virtualNodeIDs);
    return ok;
  });
}
