import { dnsLineRoutes, groupLineRoutes, type Locale, localeFromLanguageTag } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import type { Binder } from '../../platform/http/bind-route.js';
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

export function bindGroupLineRoutes(binder: Binder, lines: GroupLinesService): void {
  binder.bind(dnsLineRoutes.listDnsLines, async (_input, { request }) => ({ data: dnsLines(lineLocale(request)) }));

  const r = groupLineRoutes;
  binder.bind(r.lineNodeNums, async ({ params }, { caller }) => ({
    data: await lines.nodeNums(caller.operatorId, params.zoneID, params.groupID),
  }));

  binder.bind(r.listLineNodes, async ({ params, query }, { caller }) =>
    lines.lineNodes(caller.operatorId, params.zoneID, params.groupID, params.lineID, query),
  );
  binder.bind(r.listLineVirtualNodes, async ({ params, query }, { caller }) =>
    lines.lineVirtualNodes(caller.operatorId, params.zoneID, params.groupID, params.lineID, query),
  );
  binder.bind(r.lineNodeCandidates, async ({ params, query }, { caller }) =>
    lines.nodeCandidates(caller.operatorId, params.zoneID, params.groupID, params.lineID, query),
  );
  binder.bind(r.lineVirtualNodeCandidates, async ({ params, query }, { caller }) =>
    lines.virtualNodeCandidates(caller.operatorId, params.zoneID, params.groupID, params.lineID, query),
  );
  binder.bind(r.addLineNodes, async ({ params, body }, { caller }) => {
    await lines.add('nodes', caller.operatorId, params.zoneID, params.groupID, params.lineID, body.nodeIDs);
  });
  binder.bind(r.addLineVirtualNodes, async ({ params, body }, { caller }) => {
    await lines.add(
      'virtualNodes',
      caller.operatorId,
      params.zoneID,
      params.groupID,
      params.lineID,
      body.virtualNodeIDs,
    );
  });
  binder.bind(r.removeLineNodes, async ({ params, body }, { caller }) => {
    await lines.remove('nodes', caller.operatorId, params.zoneID, params.groupID, params.lineID, body.nodeIDs);
  });
  binder.bind(r.removeLineVirtualNodes, async ({ params, body }, { caller }) => {
    await lines.remove(
      'virtualNodes',
      caller.operatorId,
      params.zoneID,
      params.groupID,
      params.lineID,
      body.virtualNodeIDs,
    );
  });
  binder.bind(r.moveLineNodes, async ({ params, body }, { caller }) => {
    await lines.move(
      'nodes',
      caller.operatorId,
      params.zoneID,
      params.groupID,
      params.lineID,
      body.toLine,
      body.nodeIDs,
    );
  });
  binder.bind(r.moveLineVirtualNodes, async ({ params, body }, { caller }) => {
    await lines.move(
      'virtualNodes',
      caller.operatorId,
      params.zoneID,
      params.groupID,
      params.lineID,
      body.toLine,
      body.virtualNodeIDs,
    );
  });
}
