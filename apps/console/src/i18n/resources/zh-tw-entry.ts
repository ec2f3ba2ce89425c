import type { EntryResources } from './en-us-entry';

/** The Traditional Chinese texts of the signed-out pages and the shared words (see `./en-us-entry`). */
export const zhTWEntry: EntryResources = {
  common: {
    productName: 'Rampart',
    language: '語言',
    languageNames: {
      en_US: 'English',
      zh_CN: '简体中文',
      zh_TW: '繁體中文',
    },
    backHome: '返回首頁',
    reload: '重新載入',
    yes: '是',
    no: '否',
    cancel: '取消',
    tiers: {
      user: '使用者主控台',
      client: '客戶端主控台',
      admin: '管理主控台',
    },
    defaultCopyright: '版權所有 © Rampart',
    actions: {
      title: '操作',
      edit: '編輯',
      delete: '刪除',
      retry: '重試',
      close: '關閉',
      copy: '複製',
      copied: '已複製',
      copyFailed: '瀏覽器不允許複製，請選取文字後手動複製。',
    },
    list: {
      total: '共 {{total}} 筆',
      loadFailed: '清單載入失敗。',
      columns: '欄位設定',
      columnsTitle: '顯示的欄位',
      columnsAll: '全部顯示',
    },
    portTypes: {
      '7': '第七層（HTTP/HTTPS）',
      '4': '第四層（TCP/UDP）',
    },
    picker: {
      pick: '新增所選（{{count}}）',
    },
  },
  toasts: {
    created: '建立成功！',
  },
  auth: {
    account: '帳號',
    password: '密碼',
    logIn: '登入',
    verifyTitle: '驗證登入',
    code: '驗證碼',
    codeHintEmail: '請輸入寄至 {{account}} 電子郵件信箱的 6 位數驗證碼。',
    codeHintTotp: '請輸入驗證器應用程式顯示的 6 位數驗證碼。',
    verify: '驗證',
    resendCode: '重新寄送驗證碼',
    backToLogin: '返回登入',
    createPasswordTitle: '設定密碼',
    createPasswordFor: '帳號：{{name}}（{{email}}）',
    newPassword: '新密碼',
    confirmPassword: '確認密碼',
    createPassword: '設定密碼',
  },
  notFound: {
    title: '找不到頁面',
    subTitle: '抱歉，您造訪的頁面不存在。',
  },
  routeError: {
    title: '發生錯誤',
    subTitle: '無法載入此頁面，請重新載入後再試。',
  },
};
