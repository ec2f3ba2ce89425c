import type { Localized } from './locale.js';
import { RESOURCE_VALIDATION_MESSAGES } from './validation-messages-resources.js';

/**
 * Localized texts of the validation message keys (spec part 1 §5). Validators and schemas report
 * only the key (plus `{name}` parameters, see `formatMessage`); the server and the consoles pick
 * the text for the reader's language here, so one failure reads the same on both sides.
 */
export const VALIDATION_MESSAGES = {
  required: {
    en_US: 'This field is required',
    zh_CN: '此项为必填项',
    zh_TW: '此欄位為必填',
  },
  wrongFormat: {
    en_US: 'Wrong format',
    zh_CN: '格式错误',
    zh_TW: '格式錯誤',
  },
  runaway: {
    en_US: 'This pattern can take too long to match (a repeated group that itself repeats or has alternatives)',
    zh_CN: '此表达式匹配可能耗时过长（重复的分组内又有重复或分支）',
    zh_TW: '此表示式比對可能耗時過長（重複的群組內又有重複或分支）',
  },
  invalidCharacter: {
    en_US: 'Contains a character that is not allowed (a NUL or an unpaired surrogate)',
    zh_CN: '包含不允许的字符（NUL 或不成对的代理字符）',
    zh_TW: '包含不允許的字元（NUL 或不成對的代理字元）',
  },
  // Requests refused before any route reads them (the `reason` of a framework-level 101003).
  bodyTooLarge: {
    en_US: 'The request body is too large',
    zh_CN: '请求正文过大',
    zh_TW: '請求內容過大',
  },
  unsupportedMediaType: {
    en_US: 'Unsupported content type; send JSON (or form data where a file is uploaded)',
    zh_CN: '不支持的内容类型；请发送 JSON（上传文件时使用表单数据）',
    zh_TW: '不支援的內容類型；請傳送 JSON（上傳檔案時使用表單資料）',
  },
  invalidJson: {
    en_US: 'The request body is not valid JSON',
    zh_CN: '请求正文不是有效的 JSON',
    zh_TW: '請求內容不是有效的 JSON',
  },
  emptyJsonBody: {
    en_US: 'The request body is empty although its type is JSON',
    zh_CN: '请求正文为空，但其类型为 JSON',
    zh_TW: '請求內容為空，但其類型為 JSON',
  },
  urlTooLong: {
    en_US: 'The request URL is too long',
    zh_CN: '请求网址过长',
    zh_TW: '請求網址過長',
  },
  headersTooLarge: {
    en_US: 'The request headers or URL are too large',
    zh_CN: '请求标头或网址过大',
    zh_TW: '請求標頭或網址過大',
  },
  requestTimeout: {
    en_US: 'The request was not received in time',
    zh_CN: '未能及时收到请求',
    zh_TW: '未能及時收到請求',
  },
  badRequest: {
    en_US: 'The request is malformed',
    zh_CN: '请求格式错误',
    zh_TW: '請求格式錯誤',
  },
  duplicateIP: {
    en_US: 'Duplicate IP',
    zh_CN: 'IP 重复',
    zh_TW: 'IP 重複',
  },
  max5000IPs: {
    en_US: 'At most 5000 IPs',
    zh_CN: '最多 5000 个 IP',
    zh_TW: '最多 5000 個 IP',
  },
  emailError: {
    en_US: 'Please enter a valid email',
    zh_CN: '请输入有效的电子邮箱',
    zh_TW: '請輸入有效的電子郵件',
  },
  passwordNotMatch: {
    en_US: 'The two passwords do not match',
    zh_CN: '两次输入的密码不一致',
    zh_TW: '兩次輸入的密碼不一致',
  },
  passwordTooShort: {
    en_US: 'The password needs at least {min} characters',
    zh_CN: '密码至少需要 {min} 个字符',
    zh_TW: '密碼至少需要 {min} 個字元',
  },
  passwordTooCommon: {
    en_US: 'This password is too common; choose another',
    zh_CN: '该密码过于常见，请换一个',
    zh_TW: '此密碼過於常見，請換一個',
  },
  wrongCode: {
    en_US: 'The verification code is wrong or has expired',
    zh_CN: '验证码错误或已过期',
    zh_TW: '驗證碼錯誤或已過期',
  },
  wrongPassword: {
    en_US: 'The current password is wrong',
    zh_CN: '当前密码错误',
    zh_TW: '目前密碼錯誤',
  },
  tooLong: {
    en_US: 'At most {max} characters',
    zh_CN: '最多 {max} 个字符',
    zh_TW: '最多 {max} 個字元',
  },
  endBeforeStart: {
    en_US: 'The end must be after the start',
    zh_CN: '结束时间必须晚于开始时间',
    zh_TW: '結束時間必須晚於開始時間',
  },
  rangeTooLong: {
    en_US: 'The time range is too long',
    zh_CN: '时间范围过长',
    zh_TW: '時間範圍過長',
  },
  exportNotReady: {
    en_US: 'The export file is not ready (only a finished export can be downloaded)',
    zh_CN: '导出文件尚未就绪（只有已完成的导出可以下载）',
    zh_TW: '匯出檔案尚未就緒（只有已完成的匯出可以下載）',
  },
  backupNotReady: {
    en_US: 'The backup is not finished (only a finished backup can be downloaded or restored)',
    zh_CN: '备份尚未完成（只有已完成的备份可以下载或恢复）',
    zh_TW: '備份尚未完成（只有已完成的備份可以下載或還原）',
  },
  backupRunning: {
    en_US: 'A backup or a restore is running: wait until it ends',
    zh_CN: '备份或恢复正在进行，请等待其结束',
    zh_TW: '備份或還原正在進行，請等待其結束',
  },
  backupCorrupt: {
    en_US: 'The backup is damaged or is not a backup of this store: nothing was changed',
    zh_CN: '备份已损坏或不是此数据库的备份，未做任何更改',
    zh_TW: '備份已損毀或不是此資料庫的備份，未做任何變更',
  },
  backupOtherStore: {
    en_US: 'The backup is of another kind of store (PostgreSQL or embedded) and cannot be restored here',
    zh_CN: '该备份来自另一种数据库（PostgreSQL 或内嵌数据库），无法在此恢复',
    zh_TW: '該備份來自另一種資料庫（PostgreSQL 或內嵌資料庫），無法在此還原',
  },
  backupNewer: {
    en_US: 'The backup was made by a newer version of the control plane: upgrade before restoring it',
    zh_CN: '该备份由较新版本的控制面生成，请先升级再恢复',
    zh_TW: '該備份由較新版本的控制面產生，請先升級再還原',
  },
  tooManyPoints: {
    en_US: 'This interval gives too many points for the time range: choose a longer one',
    zh_CN: '此间隔在该时间范围内的数据点过多，请选择更长的间隔',
    zh_TW: '此間隔在該時間範圍內的資料點過多，請選擇更長的間隔',
  },
  /** Under a list box whose bad lines are more than it lists: how many more. */
  moreBadLines: {
    en_US: 'and {count} more lines with errors',
    zh_CN: '另有 {count} 行有误',
    zh_TW: '另有 {count} 行有誤',
  },
  tooMany: {
    en_US: 'At most {max} items',
    zh_CN: '最多 {max} 项',
    zh_TW: '最多 {max} 項',
  },
  tooSmall: {
    en_US: 'Must be at least {min}',
    zh_CN: '不能小于 {min}',
    zh_TW: '不得小於 {min}',
  },
  tooBig: {
    en_US: 'Must be at most {max}',
    zh_CN: '不能大于 {max}',
    zh_TW: '不得大於 {max}',
  },
  mustBePositive: {
    en_US: 'Must be greater than 0',
    zh_CN: '必须大于 0',
    zh_TW: '必須大於 0',
  },
  notInteger: {
    en_US: 'Must be a whole number',
    zh_CN: '必须为整数',
    zh_TW: '必須為整數',
  },
  invalidValue: {
    en_US: 'Not one of the allowed values',
    zh_CN: '不是允许的取值',
    zh_TW: '不是允許的選項',
  },
  invalid_type: {
    en_US: 'The value has the wrong type',
    zh_CN: '值的类型错误',
    zh_TW: '值的類型錯誤',
  },
  punycode_error: {
    en_US: 'The domain name cannot be converted to ASCII (Punycode)',
    zh_CN: '域名无法转换为 ASCII（Punycode）格式',
    zh_TW: '網域名稱無法轉換為 ASCII（Punycode）格式',
  },
  invalid_format: {
    en_US: 'Invalid domain name format',
    zh_CN: '域名格式无效',
    zh_TW: '網域名稱格式無效',
  },
  invalid_sld_length: {
    en_US: 'The second-level domain must be 1 to 63 characters long',
    zh_CN: '二级域名长度须为 1 到 63 个字符',
    zh_TW: '二級網域長度須為 1 至 63 個字元',
  },
  invalid_sld_underscore: {
    en_US: 'The second-level domain must not contain an underscore',
    zh_CN: '二级域名不能包含下划线',
    zh_TW: '二級網域不得包含底線',
  },
  invalid_tld: {
    en_US: 'Invalid top-level domain',
    zh_CN: '顶级域名无效',
    zh_TW: '頂級網域無效',
  },
  ...RESOURCE_VALIDATION_MESSAGES,
} as const satisfies Record<string, Localized>;

export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

export function isValidationKey(value: unknown): value is ValidationKey {
  return typeof value === 'string' && Object.hasOwn(VALIDATION_MESSAGES, value);
}

/**
 * Outcome of a validator. A failure names the message key; list validators also say which entry
 * failed (`line` is 1-based, `value` the offending entry) and `params` fills the message placeholders.
 */
export type ValidationResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly key: ValidationKey;
      readonly line?: number;
      readonly value?: string;
      readonly params?: Readonly<Record<string, string | number>>;
    };
