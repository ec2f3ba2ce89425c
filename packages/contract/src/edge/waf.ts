import { z } from 'zod';
import type { Localized } from '../locale.js';

/**
 * The WAF (issue 20): its rule groups, what a WAF module says, and the module as the edge reads it
 * from the data plane. The engine (apps/edge rampart.waf*) is an agent release; a module is data.
 */

/**
 * The rule groups a module turns on or off, in the order the console lists them. Every rule of the
 * engine belongs to exactly one group, and its id lies in the group's range
 * (WAF_GROUP_RULE_BASE[group] .. + 999).
 */
export const WAF_GROUPS = [
  'sqli',
  'xss',
  'rce',
  'traversal',
  'rfi',
  'php',
  'java',
  'ssti',
  'ssrf',
  'xxe',
  'upload',
  'sensitiveFiles',
  'scanner',
  'protocol',
  'nosql',
  'ldap',
  'redirect',
  'graphql',
  'cve',
] as const;
export type WafGroup = (typeof WAF_GROUPS)[number];

/** The first rule id of each group: 100000, 101000, ... in WAF_GROUPS order. */
export const WAF_GROUP_RULE_BASE: Readonly<Record<WafGroup, number>> = Object.fromEntries(
  WAF_GROUPS.map((g, i) => [g, 100_000 + i * 1000]),
) as Record<WafGroup, number>;
export const WAF_RULE_ID_MIN = 100_000;
export const WAF_RULE_ID_MAX = 100_000 + WAF_GROUPS.length * 1000 - 1;

/** The group a rule id belongs to, or null for an id outside every range. */
export function wafRuleGroup(ruleId: number): WafGroup | null {
  if (!Number.isInteger(ruleId) || ruleId < WAF_RULE_ID_MIN || ruleId > WAF_RULE_ID_MAX) return null;
  return WAF_GROUPS[Math.floor((ruleId - WAF_RULE_ID_MIN) / 1000)] ?? null;
}

/** Names and descriptions of the groups in the three interface languages (`defaultRules`). */
export const WAF_GROUP_TEXT: Readonly<Record<WafGroup, { name: Localized; description: Localized }>> = {
  sqli: {
    name: { en_US: 'SQL injection', zh_CN: 'SQL 注入', zh_TW: 'SQL 注入' },
    description: {
      en_US: 'SQL fragments in parameters, cookies, headers and bodies that change a query',
      zh_CN: '参数、Cookie、请求头和请求体中改变查询语义的 SQL 片段',
      zh_TW: '參數、Cookie、請求標頭和請求內容中改變查詢語意的 SQL 片段',
    },
  },
  xss: {
    name: { en_US: 'Cross-site scripting', zh_CN: '跨站脚本', zh_TW: '跨站指令碼' },
    description: {
      en_US: 'Scripts, event handlers and script URLs injected into pages',
      zh_CN: '注入页面的脚本、事件处理器和脚本链接',
      zh_TW: '注入頁面的指令碼、事件處理器和指令碼連結',
    },
  },
  rce: {
    name: { en_US: 'Command injection and RCE', zh_CN: '命令注入与远程代码执行', zh_TW: '命令注入與遠端程式碼執行' },
    description: {
      en_US: 'Shell commands, command chaining and Shellshock',
      zh_CN: 'Shell 命令、命令拼接和 Shellshock',
      zh_TW: 'Shell 命令、命令串接和 Shellshock',
    },
  },
  traversal: {
    name: { en_US: 'Path traversal and LFI', zh_CN: '路径穿越与本地文件包含', zh_TW: '路徑穿越與本機檔案包含' },
    description: {
      en_US: 'Climbing out of the web root and reading local system files',
      zh_CN: '跳出网站根目录并读取本地系统文件',
      zh_TW: '跳出網站根目錄並讀取本機系統檔案',
    },
  },
  rfi: {
    name: { en_US: 'Remote file inclusion', zh_CN: '远程文件包含', zh_TW: '遠端檔案包含' },
    description: {
      en_US: 'Parameters that make the application load code from another server',
      zh_CN: '让应用从其他服务器加载代码的参数',
      zh_TW: '讓應用程式從其他伺服器載入程式碼的參數',
    },
  },
  php: {
    name: { en_US: 'PHP injection', zh_CN: 'PHP 注入', zh_TW: 'PHP 注入' },
    description: {
      en_US: 'PHP code, wrappers and dangerous functions',
      zh_CN: 'PHP 代码、封装协议和危险函数',
      zh_TW: 'PHP 程式碼、封裝協定和危險函式',
    },
  },
  java: {
    name: { en_US: 'Java injection and Log4Shell', zh_CN: 'Java 注入与 Log4Shell', zh_TW: 'Java 注入與 Log4Shell' },
    description: {
      en_US: 'JNDI lookups, expression languages and Java deserialisation',
      zh_CN: 'JNDI 查找、表达式语言和 Java 反序列化',
      zh_TW: 'JNDI 查詢、表示式語言和 Java 反序列化',
    },
  },
  ssti: {
    name: { en_US: 'Template and Node.js injection', zh_CN: '模板与 Node.js 注入', zh_TW: '範本與 Node.js 注入' },
    description: {
      en_US: 'Server-side template expressions and JavaScript run on the server',
      zh_CN: '服务端模板表达式和在服务端运行的 JavaScript',
      zh_TW: '伺服器端範本表示式和在伺服器端執行的 JavaScript',
    },
  },
  ssrf: {
    name: { en_US: 'Server-side request forgery', zh_CN: '服务端请求伪造', zh_TW: '伺服器端請求偽造' },
    description: {
      en_US: 'URLs that point the application at internal addresses and metadata services',
      zh_CN: '让应用访问内网地址和元数据服务的链接',
      zh_TW: '讓應用程式存取內部位址和中繼資料服務的連結',
    },
  },
  xxe: {
    name: { en_US: 'XML external entities', zh_CN: 'XML 外部实体', zh_TW: 'XML 外部實體' },
    description: {
      en_US: 'XML documents that declare external entities',
      zh_CN: '声明外部实体的 XML 文档',
      zh_TW: '宣告外部實體的 XML 文件',
    },
  },
  upload: {
    name: { en_US: 'Web shell uploads', zh_CN: '网页后门上传', zh_TW: '網頁後門上傳' },
    description: {
      en_US: 'Uploaded files with executable extensions or server-side code',
      zh_CN: '带可执行扩展名或服务端代码的上传文件',
      zh_TW: '帶可執行副檔名或伺服器端程式碼的上傳檔案',
    },
  },
  sensitiveFiles: {
    name: { en_US: 'Sensitive files', zh_CN: '敏感文件', zh_TW: '敏感檔案' },
    description: {
      en_US: 'Version control folders, environment files, backups and configuration',
      zh_CN: '版本控制目录、环境变量文件、备份和配置文件',
      zh_TW: '版本控制目錄、環境變數檔案、備份和設定檔',
    },
  },
  scanner: {
    name: { en_US: 'Scanners', zh_CN: '扫描器', zh_TW: '掃描器' },
    description: {
      en_US: 'Known vulnerability scanners and attack tools',
      zh_CN: '已知的漏洞扫描器和攻击工具',
      zh_TW: '已知的弱點掃描器和攻擊工具',
    },
  },
  protocol: {
    name: { en_US: 'Protocol violations', zh_CN: '协议违规', zh_TW: '協定違規' },
    description: {
      en_US: 'Request smuggling shapes, invalid encodings and malformed requests',
      zh_CN: '请求走私特征、无效编码和畸形请求',
      zh_TW: '請求走私特徵、無效編碼和畸形請求',
    },
  },
  nosql: {
    name: { en_US: 'NoSQL injection', zh_CN: 'NoSQL 注入', zh_TW: 'NoSQL 注入' },
    description: {
      en_US: 'MongoDB query operators where a value is expected ($ne, $regex, user[$gt]=) and JavaScript in $where',
      zh_CN: '本应是值的位置出现 MongoDB 查询操作符（$ne、$regex、查询参数中的 [$gt]=）以及 $where 中的 JavaScript',
      zh_TW: '本應是值的位置出現 MongoDB 查詢運算子（$ne、$regex、查詢參數中的 [$gt]=）以及 $where 中的 JavaScript',
    },
  },
  ldap: {
    name: { en_US: 'LDAP injection', zh_CN: 'LDAP 注入', zh_TW: 'LDAP 注入' },
    description: {
      en_US: 'Values that close a directory search filter and open another (*)(uid=*), )(|(objectClass=*)',
      zh_CN: '闭合目录查询过滤器并另起一个过滤器的值（*)(uid=*)、)(|(objectClass=*)）',
      zh_TW: '閉合目錄查詢篩選條件並另起一個篩選條件的值（*)(uid=*)、)(|(objectClass=*)）',
    },
  },
  redirect: {
    name: { en_US: 'Open redirects', zh_CN: '开放重定向', zh_TW: '開放式重新導向' },
    description: {
      en_US:
        'Redirect parameters (next, returnUrl, redirect_uri ...) pointing at another host: //host, /\\host, https:host, user@host',
      zh_CN:
        '指向其他主机的跳转参数值（如 redirect_uri=//evil.example、https:evil.example、user@evil.example，以及以 / 和反斜杠开头的地址）',
      zh_TW:
        '指向其他主機的跳轉參數值（如 redirect_uri=//evil.example、https:evil.example、user@evil.example，以及以 / 和反斜線開頭的位址）',
    },
  },
  graphql: {
    name: { en_US: 'GraphQL abuse', zh_CN: 'GraphQL 滥用', zh_TW: 'GraphQL 濫用' },
    description: {
      en_US:
        'Schema introspection (__schema, __type), one field asked for under many aliases, and large batches of operations',
      zh_CN: '模式自省（__schema、__type）、同一字段以大量别名重复请求，以及大批量操作',
      zh_TW: '結構描述自我檢查（__schema、__type）、同一欄位以大量別名重複請求，以及大批量操作',
    },
  },
  cve: {
    name: { en_US: 'Known CVE exploits', zh_CN: '已知 CVE 漏洞利用', zh_TW: '已知 CVE 弱點利用' },
    description: {
      en_US:
        'Exploits of known vulnerabilities: Struts and Confluence OGNL, Spring4Shell, Citrix path traversal, Log4Shell in any header, PHP-CGI arguments, path-normalisation bypasses (..;/)',
      zh_CN:
        '已知漏洞的利用：Struts 与 Confluence OGNL、Spring4Shell、Citrix 路径穿越、任意请求头中的 Log4Shell、PHP-CGI 参数注入、路径规范化绕过（..;/）',
      zh_TW:
        '已知弱點的利用：Struts 與 Confluence OGNL、Spring4Shell、Citrix 路徑穿越、任意請求標頭中的 Log4Shell、PHP-CGI 參數注入、路徑正規化繞過（..;/）',
    },
  },
};

/** block: a detection answers 403 and never reaches the origin; detect: it is logged only. */
export const WAF_MODES = ['block', 'detect'] as const;
export type WafMode = (typeof WAF_MODES)[number];
/**
 * How readily the engine calls a request an attack: `low` only on strong evidence (fewest false
 * positives), `high` also on weaker signals. `medium` is the default.
 */
export const WAF_SENSITIVITIES = ['low', 'medium', 'high'] as const;
export type WafSensitivity = (typeof WAF_SENSITIVITIES)[number];
/**
 * What happens to a request the engine could not finish inspecting (its time budget ran out, a body
 * over WAF_BODY_LIMIT_BYTES, a body in a charset it cannot decode): `open` lets it through (logged;
 * of a longer body the first and the last WAF_BODY_LIMIT_BYTES were inspected, so only the middle of
 * a body over twice the limit goes unread), `closed` blocks it (every body over the limit, large
 * uploads included). The default is `open`; the console states the trade-off beside the choice.
 */
export const WAF_FAIL_MODES = ['open', 'closed'] as const;
export type WafFailMode = (typeof WAF_FAIL_MODES)[number];

/** Where in the request a detection was made, and where an exclusion applies (`any`: everywhere). */
export const WAF_PARTS = ['path', 'query', 'body', 'cookie', 'header', 'file'] as const;
export type WafPart = (typeof WAF_PARTS)[number];
export const WAF_EXCLUSION_PARTS = ['any', ...WAF_PARTS] as const;
export type WafExclusionPart = (typeof WAF_EXCLUSION_PARTS)[number];

export const WAF_EXCLUSIONS_PER_MODULE = 200;
/** A path prefix of an exclusion: starts with `/`, printable ASCII without spaces. */
export const WAF_EXCLUSION_PATH_MAX = 512;
export const WAF_EXCLUSION_PATH_RE = /^\/[\x21-\x7e]*$/;
/** An argument, cookie, header or upload field name: printable ASCII without spaces. */
export const WAF_EXCLUSION_NAME_MAX = 128;
export const WAF_EXCLUSION_NAME_RE = /^[\x21-\x7e]*$/;
/**
 * The request body bytes the engine inspects from the start of a body, and as many from its end;
 * a body over it is not fully inspected and the module's fail mode decides.
 */
export const WAF_BODY_LIMIT_BYTES = 128 * 1024;

/**
 * An exclusion: `rule` (one rule id) or `group` (a whole group) is not applied to `part` (`any`:
 * every part) named `name` ("" = every name; exact argument/cookie/upload-field name, header name
 * compared case-insensitively; ignored for `path` and `any`) on paths starting with `path`
 * ("" = every path).
 */
export const wafExclusionSchema = z
  .strictObject({
    ruleId: z.number().int().min(WAF_RULE_ID_MIN).max(WAF_RULE_ID_MAX).nullable(),
    group: z.enum(WAF_GROUPS).nullable(),
    part: z.enum(WAF_EXCLUSION_PARTS),
    name: z.string().max(WAF_EXCLUSION_NAME_MAX).regex(WAF_EXCLUSION_NAME_RE, 'not a name'),
    path: z
      .string()
      .max(WAF_EXCLUSION_PATH_MAX)
      .refine((p) => p === '' || WAF_EXCLUSION_PATH_RE.test(p), 'not a path prefix'),
  })
  .refine((e) => (e.ruleId === null) !== (e.group === null), {
    message: 'an exclusion names one rule or one group',
    path: ['ruleId'],
  });
export type WafExclusion = z.infer<typeof wafExclusionSchema>;

/** A WAF module as the edge reads it (the domain's `modules.waf` points at it). */
export const edgeWafModuleSchema = z.strictObject({
  id: z.number().int().positive(),
  type: z.literal('waf'),
  siteId: z.number().int().positive(),
  mode: z.enum(WAF_MODES),
  /** The groups that are on; a group not listed is off. */
  groups: z.array(z.enum(WAF_GROUPS)).max(WAF_GROUPS.length),
  sensitivity: z.enum(WAF_SENSITIVITIES),
  failMode: z.enum(WAF_FAIL_MODES),
  exclusions: z.array(wafExclusionSchema).max(WAF_EXCLUSIONS_PER_MODULE),
});
export type EdgeWafModule = z.infer<typeof edgeWafModuleSchema>;
