import type { ErrorEntry } from './error-entry.js';

/** The error catalogue's codes 2xxxxx (errors.ts joins the parts into ERROR_CATALOGUE). */
export const ERRORS_2XXXXX = {
  201001: {
    status: 409,
    family: 'conflict',
    message: {
      en_US: 'Please Remove Nodes In This Zone',
      zh_CN: '请先移除此区域中的节点',
      zh_TW: '請先移除此區域中的節點',
    },
    when: 'Deleting a zone that still has nodes.',
  },
  201002: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Zone Name Already Exists', zh_CN: '区域名称已存在', zh_TW: '區域名稱已存在' },
    when: 'Creating or renaming a zone to an existing name.',
  },
  201003: {
    status: 422,
    family: 'limit',
    message: { en_US: 'number of regions exceeds limit', zh_CN: '地区数量超出限制', zh_TW: '地區數量超出限制' },
    when: 'More regions than allowed in a zone or geo rule.',
  },
  202001: {
    status: 502,
    family: 'upstream',
    message: { en_US: 'Node Communication Error', zh_CN: '节点通信错误', zh_TW: '節點通訊錯誤' },
    when: 'A node does not answer or answers wrongly.',
  },
  202002: {
    status: 422,
    family: 'limit',
    message: { en_US: 'nodes exceed upper limit', zh_CN: '节点数量超出上限', zh_TW: '節點數量超出上限' },
    when: 'Adding a node beyond the licensed node count.',
  },
  202003: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Node Exists In Group', zh_CN: '节点仍在分组中', zh_TW: '節點仍在群組中' },
    when: 'Deleting or moving a node that a group line still uses.',
  },
  202004: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Node Exists In Virtual Node', zh_CN: '节点仍在虚拟节点中', zh_TW: '節點仍在虛擬節點中' },
    when: 'Deleting a node that a virtual node still references.',
  },
  202005: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Port Type 4 In Use', zh_CN: '端口类型 4 正在使用中', zh_TW: '連接埠類型 4 正在使用中' },
    when: 'Changing the port type of a node whose layer-4 ports are in use.',
  },
  202006: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Invalid Node Time', zh_CN: '节点时间无效', zh_TW: '節點時間無效' },
    when: 'A node time value (log rotate time, clock) is invalid.',
  },
  202008: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Node Version Does Not match', zh_CN: '节点版本不匹配', zh_TW: '節點版本不符' },
    when: 'The node runs a version the operation does not support; upgrade it first.',
  },
  203001: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Unable To Delete Active Group', zh_CN: '无法删除启用中的分组', zh_TW: '無法刪除啟用中的群組' },
    when: 'Deleting a group that is active.',
  },
  203002: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Site Is In Use', zh_CN: '站点正在使用中', zh_TW: '網站正在使用中' },
    when: 'Deleting a group that sites still use.',
  },
  203003: {
    status: 422,
    family: 'limit',
    message: { en_US: 'grouped nodes reached limit', zh_CN: '分组节点数已达上限', zh_TW: '群組節點數已達上限' },
    when: 'Adding nodes to a group beyond its limit.',
  },
  204001: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Layer 4 Group Is In Use', zh_CN: '四层分组正在使用中', zh_TW: '四層群組正在使用中' },
    when: 'Changing or deleting a layer-4 group that products or sites use.',
  },
  204002: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Product Is In Use', zh_CN: '产品正在使用中', zh_TW: '產品正在使用中' },
    when: 'Deleting a product that sites use.',
  },
  204003: {
    status: 422,
    family: 'limit',
    message: { en_US: 'product sites exceed limit', zh_CN: '产品的站点数超出限制', zh_TW: '產品的網站數超出限制' },
    when: 'Binding more sites to a product than it allows.',
  },
  205001: {
    status: 422,
    family: 'limit',
    message: { en_US: 'sites exceed limit', zh_CN: '站点数量超出限制', zh_TW: '網站數量超出限制' },
    when: 'Creating a site beyond the account or licence limit.',
  },
  205002: {
    status: 403,
    family: 'permission',
    message: {
      en_US: 'Site Status Not Allowed To Be Set',
      zh_CN: '不允许设置该站点的状态',
      zh_TW: '不允許設定此網站的狀態',
    },
    when: 'The caller may not change this site status (e.g. a user lifting an operator pause).',
  },
  205003: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'The Site In Use', zh_CN: '该站点正在使用中', zh_TW: '此網站正在使用中' },
    when: 'Deleting or moving a site that is still bound.',
  },
  205004: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Site Has L4 Port Settings', zh_CN: '站点仍有四层端口设置', zh_TW: '網站仍有四層連接埠設定' },
    when: 'Changing a site or product while layer-4 ports are configured.',
  },
  205005: {
    status: 409,
    family: 'conflict',
    message: {
      en_US: 'Site Has An L7 Domain Name Setting',
      zh_CN: '站点仍有七层域名设置',
      zh_TW: '網站仍有七層網域設定',
    },
    when: 'Changing a site or product while layer-7 domains are configured.',
  },
  205006: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Please Lift Traffic Restrictions', zh_CN: '请先解除流量限制', zh_TW: '請先解除流量限制' },
    when: 'An operation that needs the site out of the traffic-limited state.',
  },
  205007: {
    status: 422,
    family: 'limit',
    message: {
      en_US: 'upper limit of redirect rules is 3,000',
      zh_CN: '重定向规则上限为 3,000 条',
      zh_TW: '重新導向規則上限為 3,000 條',
    },
    when: 'Adding URL redirect rules beyond 3000 per site.',
  },
  206001: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Virtual Node In Use', zh_CN: '虚拟节点正在使用中', zh_TW: '虛擬節點正在使用中' },
    when: 'Deleting a virtual node that a group line uses.',
  },
} as const satisfies Record<number, ErrorEntry>;
