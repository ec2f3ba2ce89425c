import type { Localized } from './locale.js';

/**
 * Validation texts about addresses, origins, nginx directives, ports, certificates, modules, uploaded
 * files and the reputation import; validation-messages.ts joins them into VALIDATION_MESSAGES.
 */
export const RESOURCE_VALIDATION_MESSAGES = {
  invalidIP: {
    en_US: 'Please enter a valid IP address',
    zh_CN: '请输入有效的 IP 地址',
    zh_TW: '請輸入有效的 IP 位址',
  },
  invalidOriginAddress: {
    en_US: 'Please enter an IP address or a host name (such as origin.example.com, without port or path)',
    zh_CN: '请输入 IP 地址或主机名（如 origin.example.com，不含端口或路径）',
    zh_TW: '請輸入 IP 位址或主機名稱（如 origin.example.com，不含連接埠或路徑）',
  },
  invalidURL: {
    en_US: 'Please enter a valid URL',
    zh_CN: '请输入有效的 URL',
    zh_TW: '請輸入有效的網址',
  },
  urlNotOfSite: {
    en_US: "The URL's host is not a domain of this site",
    zh_CN: '该 URL 的主机不是本站点的域名',
    zh_TW: '該網址的主機不是本站點的網域',
  },
  noEnabledNode: {
    en_US: 'The zone has no enabled node to run this',
    zh_CN: '该区域没有可执行此操作的已启用节点',
    zh_TW: '該區域沒有可執行此操作的已啟用節點',
  },
  invalidCIDR: {
    en_US: 'Please enter a valid CIDR block',
    zh_CN: '请输入有效的 CIDR 网段',
    zh_TW: '請輸入有效的 CIDR 網段',
  },
  invalidPort: {
    en_US: 'The port must be between 1 and 65535',
    zh_CN: '端口须在 1 到 65535 之间',
    zh_TW: '連接埠須介於 1 至 65535 之間',
  },
  originNotAllowed: {
    en_US: 'Origins on loopback, private or reserved addresses are not allowed',
    zh_CN: '不允许使用回环、私有或保留地址作为源站',
    zh_TW: '不允許使用迴路、私有或保留位址作為源站',
  },
  targetNotAllowed: {
    en_US: 'Destinations on loopback, private or reserved addresses are not allowed',
    zh_CN: '不允许使用回环、私有或保留地址作为目标',
    zh_TW: '不允許使用迴路、私有或保留位址作為目標',
  },
  originIsNode: {
    en_US: "The origin cannot be one of the edge nodes' own addresses on a port they listen on",
    zh_CN: '源站不能是边缘节点自身地址上正在监听的端口',
    zh_TW: '源站不能是邊緣節點自身位址上正在監聽的連接埠',
  },
  http3Unsupported: {
    en_US: "HTTP/3 is not available: the nodes' nginx has no QUIC support",
    zh_CN: 'HTTP/3 不可用：节点的 nginx 不支持 QUIC',
    zh_TW: 'HTTP/3 無法使用：節點的 nginx 不支援 QUIC',
  },
  nginxDirectiveNotAllowed: {
    en_US: 'This directive cannot be set in the {context} context',
    zh_CN: '此指令不能在 {context} 上下文中设置',
    zh_TW: '此指令不能在 {context} 區塊中設定',
  },
  nginxArgNotAllowed: {
    en_US: 'Use 1–128 letters, digits or . _ : / = + , @ % ! - (no spaces, quotes, ; { } # $)',
    zh_CN: '请使用 1–128 个字母、数字或 . _ : / = + , @ % ! -（不含空格、引号、; { } # $）',
    zh_TW: '請使用 1–128 個字母、數字或 . _ : / = + , @ % ! -（不含空白、引號、; { } # $）',
  },
  portInUse: {
    en_US: 'Port {port} is already used in this zone',
    zh_CN: '端口 {port} 已在此区域中使用',
    zh_TW: '連接埠 {port} 已在此區域中使用',
  },
  portReserved: {
    en_US: 'Port {port} is reserved on the nodes of this zone',
    zh_CN: '端口 {port} 在此区域的节点上被保留',
    zh_TW: '連接埠 {port} 在此區域的節點上被保留',
  },
  lastPort: {
    en_US: 'A zone keeps at least one listen port',
    zh_CN: '区域至少需要保留一个监听端口',
    zh_TW: '區域至少需要保留一個監聽連接埠',
  },
  certificateInvalid: {
    en_US: 'This is not a valid PEM certificate chain',
    zh_CN: '这不是有效的 PEM 证书链',
    zh_TW: '這不是有效的 PEM 憑證鏈',
  },
  certificateKeyInvalid: {
    en_US: 'This is not a valid unencrypted PEM private key',
    zh_CN: '这不是有效的未加密 PEM 私钥',
    zh_TW: '這不是有效的未加密 PEM 私鑰',
  },
  certificateKeyMismatch: {
    en_US: 'The private key does not match the certificate',
    zh_CN: '私钥与证书不匹配',
    zh_TW: '私鑰與憑證不相符',
  },
  certificateExpired: {
    en_US: 'The certificate expired on {date}',
    zh_CN: '证书已于 {date} 过期',
    zh_TW: '憑證已於 {date} 過期',
  },
  certificateInUse: {
    en_US: 'The certificate is still assigned to: {domains}',
    zh_CN: '证书仍分配给：{domains}',
    zh_TW: '憑證仍指派給：{domains}',
  },
  headerNameNotAllowed: {
    en_US:
      'Letters, digits and "-" only; hop-by-hop headers, Host, Content-Length and the edge\'s own headers cannot be changed',
    zh_CN: '仅限字母、数字和“-”；逐跳标头、Host、Content-Length 及边缘节点自身的标头不可修改',
    zh_TW: '僅限字母、數字和「-」；逐跳標頭、Host、Content-Length 及邊緣節點自身的標頭不可修改',
  },
  moduleInUse: {
    en_US: 'The module is still bound to: {domains}',
    zh_CN: '模块仍绑定到：{domains}',
    zh_TW: '模組仍綁定至：{domains}',
  },
  portTypeMismatch: {
    en_US: 'A node serves one port type; these already serve the other one: {ids}',
    zh_CN: '节点只能服务一种端口类型；以下节点已服务另一种：{ids}',
    zh_TW: '節點只能服務一種連接埠類型；以下節點已服務另一種：{ids}',
  },
  cnameAlone: {
    en_US: 'A CNAME record must be the only record of a virtual node',
    zh_CN: 'CNAME 记录必须是虚拟节点的唯一记录',
    zh_TW: 'CNAME 記錄必須是虛擬節點的唯一記錄',
  },
  fileType: {
    en_US: 'Only PNG, JPEG, GIF, WebP or ICO images',
    zh_CN: '仅支持 PNG、JPEG、GIF、WebP 或 ICO 图片',
    zh_TW: '僅支援 PNG、JPEG、GIF、WebP 或 ICO 圖片',
  },
  fileTooLarge: {
    en_US: 'The file is larger than {max}',
    zh_CN: '文件不能大于 {max}',
    zh_TW: '檔案不得大於 {max}',
  },
  geoDatabaseFile: {
    en_US: 'Not a MaxMind DB Country or City database: {reason}',
    zh_CN: '不是 MaxMind 格式的国家或城市数据库：{reason}',
    zh_TW: '不是 MaxMind 格式的國家或城市資料庫：{reason}',
  },
  asnDatabaseFile: {
    en_US: 'Not a MaxMind DB ASN database: {reason}',
    zh_CN: '不是 MaxMind 格式的自治系统数据库：{reason}',
    zh_TW: '不是 MaxMind 格式的自治系統資料庫：{reason}',
  },
  geoCityUnknown: {
    en_US: 'No such city in the geo database: {ids}',
    zh_CN: '地理数据库中没有这些城市：{ids}',
    zh_TW: '地理資料庫中沒有這些城市：{ids}',
  },
  // The reputation list's import (routes/firewall-reputation.ts parseAbuseIPImport): one per bad line.
  abuseIPImportIP: {
    en_US: 'Line {line}: not an IPv4 or IPv6 address or CIDR block',
    zh_CN: '第 {line} 行：不是 IPv4 或 IPv6 地址或 CIDR 网段',
    zh_TW: '第 {line} 行：不是 IPv4 或 IPv6 位址或 CIDR 網段',
  },
  abuseIPImportScore: {
    en_US: 'Line {line}: the score must be a whole number from {min} to {max}',
    zh_CN: '第 {line} 行：分数必须是 {min} 到 {max} 之间的整数',
    zh_TW: '第 {line} 行：分數必須是 {min} 到 {max} 之間的整數',
  },
  abuseIPImportMemo: {
    en_US: 'Line {line}: the memo is longer than {max} characters or holds a character that is not allowed',
    zh_CN: '第 {line} 行：备注超过 {max} 个字符或包含不允许的字符',
    zh_TW: '第 {line} 行：備註超過 {max} 個字元或包含不允許的字元',
  },
  abuseIPImportDuplicate: {
    en_US: 'Line {line}: the same IP as line {first}',
    zh_CN: '第 {line} 行：与第 {first} 行的 IP 重复',
    zh_TW: '第 {line} 行：與第 {first} 行的 IP 重複',
  },
  abuseIPImportMore: {
    en_US: 'and {count} more lines with errors',
    zh_CN: '另有 {count} 行有错误',
    zh_TW: '另有 {count} 行有錯誤',
  },
  abuseIPImportRows: {
    en_US: 'At most {max} rows can be imported at once; this text has {count}',
    zh_CN: '一次最多导入 {max} 行；此文本有 {count} 行',
    zh_TW: '一次最多匯入 {max} 行；此文字有 {count} 行',
  },
} as const satisfies Record<string, Localized>;
