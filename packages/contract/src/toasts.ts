import type { Localized } from './locale.js';

/**
 * Success and failure toasts of spec part 1 §8 and part 2 §8. The English is the spec's verbatim,
 * odd spacing and spelling included ('Create Role Success !', 'Set Adcance Success!',
 * 'Update User‘s Role Success !'), because end-to-end checks compare the displayed text.
 * `{auth}` is the console kind's display name, filled with formatMessage.
 */
export const TOASTS = {
  // Session and account (part 1 §4, §8)
  loginSuccess: { en_US: 'Login Success! Welcome!', zh_CN: '登录成功！欢迎！', zh_TW: '登入成功！歡迎！' },
  logoutSuccess: { en_US: 'Logout success! See you!', zh_CN: '已退出登录，再见！', zh_TW: '已登出，再見！' },
  checkMailForCode: {
    en_US: 'Please check mail to get verify code.',
    zh_CN: '请查收邮件获取验证码。',
    zh_TW: '請至電子郵件信箱查收驗證碼。',
  },
  createPasswordSuccess: { en_US: 'Create Password Successful!', zh_CN: '密码设置成功！', zh_TW: '密碼設定成功！' },
  changePasswordSuccess: { en_US: 'Change password successful!', zh_CN: '密码修改成功！', zh_TW: '密碼變更成功！' },
  editAccountSuccess: { en_US: 'Edit Account successful!', zh_CN: '账号编辑成功！', zh_TW: '帳號編輯成功！' },
  resendEmailSuccess: { en_US: 'Resend Email Successful!', zh_CN: '邮件已重新发送！', zh_TW: '郵件已重新寄送！' },
  updateInformationSuccess: {
    en_US: 'Update Information Successful!',
    zh_CN: '信息更新成功！',
    zh_TW: '資訊更新成功！',
  },
  connectionSuccess: { en_US: 'Connection Success!', zh_CN: '连接成功！', zh_TW: '連線成功！' },
  authNotMatch: { en_US: 'Auth is not match !', zh_CN: '账号类型不匹配！', zh_TW: '帳號類型不符！' },

  // Roles (part 1 §8)
  createRoleSuccess: { en_US: 'Create Role Success !', zh_CN: '角色创建成功！', zh_TW: '角色建立成功！' },
  updateRoleSuccess: { en_US: 'Update Role Success !', zh_CN: '角色更新成功！', zh_TW: '角色更新成功！' },
  removeRoleSuccess: { en_US: 'Remove Role Success !', zh_CN: '角色删除成功！', zh_TW: '角色刪除成功！' },
  updateUserRoleSuccess: {
    en_US: 'Update User‘s Role Success !',
    zh_CN: '用户角色更新成功！',
    zh_TW: '使用者角色更新成功！',
  },
  createRoleFailed: { en_US: 'Create Role Failed !', zh_CN: '角色创建失败！', zh_TW: '角色建立失敗！' },
  updateRoleFailed: { en_US: 'Update Role Failed !', zh_CN: '角色更新失败！', zh_TW: '角色更新失敗！' },
  removeRoleFailed: { en_US: 'Remove Role Failed !', zh_CN: '角色删除失败！', zh_TW: '角色刪除失敗！' },

  // Admin accounts, per console kind (part 1 §8)
  createAuthSuccess: { en_US: 'Create {auth} Successful!', zh_CN: '{auth}创建成功！', zh_TW: '{auth}建立成功！' },
  updateAuthSuccess: { en_US: 'Update {auth} Successful!', zh_CN: '{auth}更新成功！', zh_TW: '{auth}更新成功！' },
  removeAuthSuccess: { en_US: 'Remove {auth} Successful!', zh_CN: '{auth}删除成功！', zh_TW: '{auth}刪除成功！' },

  // Licences (part 1 §8)
  createLicensesSuccess: { en_US: 'Create Licenses Success!', zh_CN: '授权创建成功！', zh_TW: '授權建立成功！' },
  updateLicenseSuccess: { en_US: 'Update License Success!', zh_CN: '授权更新成功！', zh_TW: '授權更新成功！' },
  removeLicenseSuccess: { en_US: 'Remove License Success!', zh_CN: '授权删除成功！', zh_TW: '授權刪除成功！' },
  issueLicenseSuccess: { en_US: 'Issue License Success!', zh_CN: '授权签发成功！', zh_TW: '授權核發成功！' },
  updateSuccess: { en_US: 'Update Success', zh_CN: '更新成功', zh_TW: '更新成功' },
  createOfflineLicenseSuccess: {
    en_US: 'Create Offline License Success!',
    zh_CN: '离线授权创建成功！',
    zh_TW: '離線授權建立成功！',
  },
  deleteSuccessful: { en_US: 'Delete Successful!', zh_CN: '删除成功！', zh_TW: '刪除成功！' },

  // Sites and modules (part 1 §8, part 2 §8)
  deleteSuccess: { en_US: 'Delete Success!', zh_CN: '删除成功！', zh_TW: '刪除成功！' },
  createAntiRefererSuccess: {
    en_US: 'Create Anti-Referer Success!',
    zh_CN: '防盗链规则创建成功！',
    zh_TW: '防盜連規則建立成功！',
  },
  updateTagsSuccess: { en_US: 'Update Tags Success!', zh_CN: '标签更新成功！', zh_TW: '標籤更新成功！' },
  copyDomainToSiteSuccess: {
    en_US: 'Copy Domain To Site Success!',
    zh_CN: '域名已成功复制到站点！',
    zh_TW: '網域已成功複製到網站！',
  },
  headerSetSuccess: { en_US: 'Header Set Success!', zh_CN: '标头设置成功！', zh_TW: '標頭設定成功！' },
  updateCertificateSuccess: {
    en_US: 'Update Certificate Success!',
    zh_CN: '证书更新成功！',
    zh_TW: '憑證更新成功！',
  },
  assignCertificateSuccess: {
    en_US: 'Assign Certificate To Domain Success!',
    zh_CN: '证书已成功部署到域名！',
    zh_TW: '憑證已成功套用至網域！',
  },
  cacheRulesAddedSuccess: {
    en_US: 'Cache Rules Added Success!',
    zh_CN: '缓存规则添加成功！',
    zh_TW: '快取規則新增成功！',
  },
  clearCacheSuccess: { en_US: 'Clear Cache Success!', zh_CN: '缓存清除成功！', zh_TW: '快取清除成功！' },
  rateAddedSuccess: { en_US: 'Rate Added Success!', zh_CN: '限速规则添加成功！', zh_TW: '限速規則新增成功！' },
  httpCompressionSetSuccess: {
    en_US: 'HTTP compression set success!',
    zh_CN: 'HTTP 压缩设置成功！',
    zh_TW: 'HTTP 壓縮設定成功！',
  },
  setSuccess: { en_US: 'SET SUCCESS', zh_CN: '设置成功', zh_TW: '設定成功' },
  removeSuccess: { en_US: 'REMOVE SUCCESS', zh_CN: '移除成功', zh_TW: '移除成功' },
  setAdvanceSuccess: { en_US: 'Set Adcance Success!', zh_CN: '高级设置成功！', zh_TW: '進階設定成功！' },
} as const satisfies Record<string, Localized>;

export type ToastKey = keyof typeof TOASTS;
