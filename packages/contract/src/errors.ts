import { formatMessage, type Locale, type Localized } from './locale.js';

/**
 * The error catalogue: every code of spec part 1 §8 and part 2 §8 with the HTTP status the
 * server answers with, a localized message and when it is thrown.
 *
 * The spec gives codes and texts but no HTTP statuses, so each code belongs to a family and the
 * family fixes the status. The console never branches on the status (it reads `code`), so the
 * status is for HTTP intermediaries, logs and API clients; keeping it per family keeps it
 * predictable.
 *
 *   family      status  codes
 *   ok          200     101001 (a success reply that still carries a code)
 *   parameter   400     invalid input: 101003, 101006, 101011, 101020, 101021, 101023, 202006,
 *                       301001, 401003, 401008
 *   multiple    400     101009: a batch in which every item failed on its own; each item's code
 *                       is in `errors`, and those are mostly input problems
 *   auth        401     101012–101016: the credential or token is missing, wrong or spent; the
 *                       console logs out (or refreshes on 101014)
 *   permission  403     101008, 101018, 205002: the caller is known but may not do this
 *   licence     403     101019, 101022, 900001: the installation's licence forbids the call.
 *                       101022 stays here rather than 404: it means "no licence installed",
 *                       not "no such resource" in the requested path
 *   notFound    404     101004: the API path does not exist
 *   conflict    409     duplicates and "in use / still has / exists in": the request is valid but
 *                       the current state refuses it (202008, a node version mismatch, too: the
 *                       node must be upgraded first, the input is not wrong)
 *   limit       422     a count, length or quota bound is exceeded: the input is well formed but
 *                       would take a resource over its limit
 *   rate        429     601001, 601002: log download quotas (concurrent, daily); they reset over
 *                       time, so a retry later succeeds
 *   upstream    502     101007, 101010, 101024, 202001: a proxy, DNS, licence server or node the
 *                       server talks to failed
 *   internal    500     101002, 101005: our own fault
 */
export type ErrorFamily =
  | 'ok'
  | 'parameter'
  | 'multiple'
  | 'auth'
  | 'permission'
  | 'licence'
  | 'notFound'
  | 'conflict'
  | 'limit'
  | 'rate'
  | 'upstream'
  | 'internal';

/** HTTP status of each family (see the comment above). */
export const ERROR_FAMILY_STATUS = {
  ok: 200,
  parameter: 400,
  multiple: 400,
  auth: 401,
  permission: 403,
  licence: 403,
  notFound: 404,
  conflict: 409,
  limit: 422,
  rate: 429,
  upstream: 502,
  internal: 500,
} as const satisfies Record<ErrorFamily, number>;

export interface ErrorEntry {
  readonly status: number;
  readonly family: ErrorFamily;
  readonly message: Localized;
  /** when it is thrown */
  readonly when: string;
}

/** English texts are the spec's (part 1 §8) verbatim, odd casing included. */
export const ERROR_CATALOGUE = {
  101001: {
    status: 200,
    family: 'ok',
    message: { en_US: 'OK', zh_CN: '成功', zh_TW: '成功' },
    when: 'Never as an error: a reply carrying it is a success and the console passes it silently.',
  },
  101002: {
    status: 500,
    family: 'internal',
    message: { en_US: 'Unknown Error', zh_CN: '未知错误', zh_TW: '未知錯誤' },
    when: 'An unexpected exception that no other code describes.',
  },
  101003: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Parameter Error', zh_CN: '参数错误', zh_TW: '參數錯誤' },
    when: 'Path, query or body fails validation (fields in extra.fields); with extra "invalid license key" for a bad licence key.',
  },
  101004: {
    status: 404,
    family: 'notFound',
    message: { en_US: 'API Path Invalid', zh_CN: 'API 路径无效', zh_TW: 'API 路徑無效' },
    when: 'No route matches the method and path.',
  },
  101005: {
    status: 500,
    family: 'internal',
    message: { en_US: 'Database Execution Error', zh_CN: '数据库执行错误', zh_TW: '資料庫執行錯誤' },
    when: 'A database statement fails for a reason other than a known constraint.',
  },
  101006: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Invalid DNS Setting', zh_CN: 'DNS 设置无效', zh_TW: 'DNS 設定無效' },
    when: 'The submitted DNS or CNAME setting is not usable.',
  },
  101007: {
    status: 502,
    family: 'upstream',
    message: { en_US: 'Proxy Connection Failed', zh_CN: '代理连接失败', zh_TW: '代理連線失敗' },
    when: 'The server cannot reach a proxy or edge it forwards the call to.',
  },
  101008: {
    status: 403,
    family: 'permission',
    message: { en_US: 'Account Is Not Enabled', zh_CN: '账号未启用', zh_TW: '帳號未啟用' },
    when: 'A paused, locked or expired account signs in or calls.',
  },
  101009: {
    status: 400,
    family: 'multiple',
    message: { en_US: 'Multiple Errors', zh_CN: '发生多个错误', zh_TW: '發生多個錯誤' },
    when: 'A batch call in which items failed with different codes; the reply carries an errors list with targets.',
  },
  101010: {
    status: 502,
    family: 'upstream',
    message: { en_US: 'DNS Execution Error', zh_CN: 'DNS 执行错误', zh_TW: 'DNS 執行錯誤' },
    when: 'The DNS provider rejects or fails a record change.',
  },
  101011: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Inconsistent Ports', zh_CN: '端口不一致', zh_TW: '連接埠不一致' },
    when: 'Ports that must match (listen and upstream, or across a batch) differ.',
  },
  101012: {
    status: 401,
    family: 'auth',
    message: { en_US: 'Failed To Auth The Credential', zh_CN: '身份验证失败', zh_TW: '身分驗證失敗' },
    when: 'Wrong account, password or verification code at sign-in.',
  },
  101013: {
    status: 401,
    family: 'auth',
    message: { en_US: 'Invalid Token', zh_CN: '令牌无效', zh_TW: '權杖無效' },
    when: 'The access token is missing, malformed, revoked or of another console.',
  },
  101014: {
    status: 401,
    family: 'auth',
    message: { en_US: 'Token Expired', zh_CN: '令牌已过期', zh_TW: '權杖已過期' },
    when: 'The access token has expired; the console refreshes once and replays.',
  },
  101015: {
    status: 401,
    family: 'auth',
    message: { en_US: 'Revoke Token Failed', zh_CN: '撤销令牌失败', zh_TW: '撤銷權杖失敗' },
    when: 'Logout cannot revoke the presented token.',
  },
  101016: {
    status: 401,
    family: 'auth',
    message: { en_US: 'Refresh Token Failed', zh_CN: '刷新令牌失败', zh_TW: '更新權杖失敗' },
    when: 'The refresh token is invalid or expired.',
  },
  101017: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Duplicate Email', zh_CN: '邮箱地址已被使用', zh_TW: '電子郵件地址已被使用' },
    when: 'Creating or editing an account with an e-mail another account has.',
  },
  101018: {
    status: 403,
    family: 'permission',
    message: { en_US: 'Permission Denied', zh_CN: '权限不足', zh_TW: '權限不足' },
    when: 'The signed-in account lacks the role permission or tier for the call.',
  },
  101019: {
    status: 403,
    family: 'licence',
    message: { en_US: 'License Expired', zh_CN: '授权已过期', zh_TW: '授權已過期' },
    when: 'The installation or user licence is past its expiry.',
  },
  101020: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Illegal Email Settings', zh_CN: '邮件设置无效', zh_TW: '電子郵件設定無效' },
    when: 'The SMTP settings are incomplete or cannot send.',
  },
  101021: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Illegal Telegram Token', zh_CN: 'Telegram 令牌无效', zh_TW: 'Telegram 權杖無效' },
    when: 'The Telegram bot token is malformed or rejected.',
  },
  101022: {
    status: 403,
    family: 'licence',
    message: { en_US: 'License Does Not Exist', zh_CN: '授权不存在', zh_TW: '授權不存在' },
    when: 'No licence is installed, or the named licence is unknown.',
  },
  101023: {
    status: 400,
    family: 'parameter',
    message: { en_US: 'Illegal Port Type', zh_CN: '端口类型无效', zh_TW: '連接埠類型無效' },
    when: 'A port type outside the allowed set.',
  },
  101024: {
    status: 502,
    family: 'upstream',
    message: { en_US: 'Invalid License Server', zh_CN: '授权服务器无效', zh_TW: '授權伺服器無效' },
    when: 'The licence server cannot be reached or answers wrongly.',
  },
  101025: {
    status: 409,
    family: 'conflict',
    message: { en_US: 'Duplicated data', zh_CN: '数据重复', zh_TW: '資料重複' },
    when: 'A unique value (name, key, rule) already exists.',
  },
  101029: {
    status: 422,
    family: 'limit',
    message: { en_US: 'number of items exceeds limit', zh_CN: '项目数量超出限制', zh_TW: '項目數量超出限制' },
    when: 'A list in the request has more entries than allowed (e.g. over 5000 IPs).',
  },
  101030: {
    status: 422,
    family: 'limit',
    message: { en_US: 'number of characters exceeds limit', zh_CN: '字符数超出限制', zh_TW: '字元數超出限制' },
    when: 'A text field is longer than allowed.',
  },
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

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code, ascending (integer keys enumerate in numeric order). */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_CATALOGUE).map(Number) as ErrorCode[];

/** The fallback text of a failed call without a usable message (part 1 §8). */
export const DEFAULT_ERROR_MESSAGE: Localized = {
  en_US: 'Some Error Occurred',
  zh_CN: '发生错误',
  zh_TW: '發生錯誤',
};

/**
 * 401003 with the port the server named in `extra` ('port N is ...'); the console falls back to
 * the server's raw message when no port can be parsed.
 */
export const PORT_MAPPING_MESSAGE: Localized = {
  en_US: 'Illegal port mapping settings: port {port} is not available',
  zh_CN: '端口映射设置无效：端口 {port} 不可用',
  zh_TW: '連接埠對應設定無效：連接埠 {port} 無法使用',
};

/** 101003 whose extra is 'invalid license key' (part 1 §8). */
export const INVALID_LICENSE_KEY_MESSAGE: Localized = {
  en_US: 'Invalid License Key',
  zh_CN: '授权密钥无效',
  zh_TW: '授權金鑰無效',
};

export function isErrorCode(n: unknown): n is ErrorCode {
  return typeof n === 'number' && Object.hasOwn(ERROR_CATALOGUE, n);
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The localized text of a code with `{name}` placeholders filled (e.g. `{num}` of 601001). */
export function errorMessage(code: ErrorCode, locale: Locale, params?: Record<string, string | number>): string {
  return formatMessage(ERROR_CATALOGUE[code].message[locale], params);
}
