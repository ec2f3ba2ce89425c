import type { ErrorEntry } from './error-entry.js';

/** The error catalogue's codes 3xxxxx to 9xxxxx (errors.ts joins the parts into ERROR_CATALOGUE). */
export const ERRORS_3XXXXX_9XXXXX = {
  301001: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Invalid Certificate Name', zh_CN: '证书名称无效', zh_TW: '憑證名稱無效' },
    when: 'A certificate whose names do not cover a domain it is assigned to.',
  },
  401001: {
    status: 409,
    family: 'conflict',
    message: {
      en_US: 'Unable To Enable Duplicate Domains',
      zh_CN: '无法启用重复的域名',
      zh_TW: '無法啟用重複的網域',
    },
    when: 'Enabling a domain already enabled elsewhere.',
  },
  401002: {
    status: 422,
    family: 'limit',
    message: { en_US: 'domain names exceed limit', zh_CN: '域名数量超出限制', zh_TW: '網域數量超出限制' },
    when: 'Adding domains beyond the site limit.',
  },
  401003: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Illegal Port Mapping Settings', zh_CN: '端口映射设置无效', zh_TW: '連接埠對應設定無效' },
    when: 'A domain port map uses a port that is taken or not allowed; extra names it ("port N is ...").',
  },
  401004: {
    status: 422,
    family: 'limit',
    message: { en_US: 'Auto SSL exceeds limit', zh_CN: '自动 SSL 数量超出限制', zh_TW: '自動 SSL 數量超出限制' },
    when: 'Turning on auto SSL for more domains than allowed.',
  },
  401007: {
    status: 422,
    family: 'limit',
    message: { en_US: 'Port Counts Exceeds Limit', zh_CN: '端口数量超出限制', zh_TW: '連接埠數量超出限制' },
    when: 'More ports than the site allows.',
  },
  401008: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Upstream without enabled', zh_CN: '没有已启用的上游', zh_TW: '沒有已啟用的上游' },
    when: 'Saving upstreams of which none is enabled.',
  },
  601001: {
    status: 429,
    family: 'rate',
    message: {
      en_US: 'simultaneous download quantity reached limit ({num} records)',
      zh_CN: '同时下载数量已达上限（{num} 条记录）',
      zh_TW: '同時下載數量已達上限（{num} 筆記錄）',
    },
    when: 'A log export while the concurrent limit (3) is running; num is that limit.',
  },
  601002: {
    status: 429,
    family: 'rate',
    message: {
      en_US: 'daily download limit reached ({num} records)',
      zh_CN: '已达每日下载上限（{num} 条记录）',
      zh_TW: '已達每日下載上限（{num} 筆記錄）',
    },
    when: 'A log export beyond the daily quota; num is the account maxLogExportTimes.',
  },
  701001: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Site auth group in use', zh_CN: '站点认证组正在使用中', zh_TW: '網站驗證群組正在使用中' },
    when: 'Deleting an auth group that rules use.',
  },
  900001: {
    status: 403,
    family: 'licence',
    message: { en_US: 'Illegal License', zh_CN: '授权不合法', zh_TW: '授權不合法' },
    when: 'The installed licence fails its signature or does not fit this installation.',
  },
  10102502: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Duplicate keys are not allowed', zh_CN: '不允许重复的键名', zh_TW: '不允許重複的鍵名' },
    when: 'A custom header module with the same header name twice.',
  },
} as const satisfies Record<number, ErrorEntry>;
