import type { EntryResources } from './en-us-entry';

/** The Simplified Chinese texts of the signed-out pages and the shared words (see `./en-us-entry`). */
export const zhCNEntry: EntryResources = {
  common: {
    productName: 'Rampart',
    language: '语言',
    languageNames: {
      en_US: 'English',
      zh_CN: '简体中文',
      zh_TW: '繁體中文',
    },
    backHome: '返回首页',
    reload: '重新加载',
    yes: '是',
    no: '否',
    cancel: '取消',
    tiers: {
      user: '用户控制台',
      client: '客户端控制台',
      admin: '管理控制台',
    },
    defaultCopyright: '版权所有 © Rampart',
    actions: {
      title: '操作',
      edit: '编辑',
      delete: '删除',
      retry: '重试',
      close: '关闭',
      copy: '复制',
      copied: '已复制',
      copyFailed: '浏览器不允许复制，请选中文字后手动复制。',
    },
    list: {
      total: '共 {{total}} 条',
      loadFailed: '列表加载失败。',
      columns: '列设置',
      columnsTitle: '显示的列',
      columnsAll: '全部显示',
    },
    portTypes: {
      '7': '七层（HTTP/HTTPS）',
      '4': '四层（TCP/UDP）',
    },
    picker: {
      pick: '添加所选（{{count}}）',
    },
  },
  toasts: {
    created: '创建成功！',
  },
  auth: {
    account: '账号',
    password: '密码',
    logIn: '登录',
    verifyTitle: '验证登录',
    code: '验证码',
    codeHintEmail: '请输入发送到 {{account}} 邮箱的 6 位验证码。',
    codeHintTotp: '请输入身份验证器应用显示的 6 位验证码。',
    verify: '验证',
    resendCode: '重新发送验证码',
    backToLogin: '返回登录',
    createPasswordTitle: '设置密码',
    createPasswordFor: '账号：{{name}}（{{email}}）',
    newPassword: '新密码',
    confirmPassword: '确认密码',
    createPassword: '设置密码',
  },
  notFound: {
    title: '页面不存在',
    subTitle: '抱歉，您访问的页面不存在。',
  },
  routeError: {
    title: '出错了',
    subTitle: '无法加载此页面，请重新加载后再试。',
  },
};
