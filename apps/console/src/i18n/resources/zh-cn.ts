import type { LocaleResources } from './en-us';

/** 简体中文 interface texts. */
export const zhCN: LocaleResources = {
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
  },
  home: {
    description: '自托管的 CDN、DDoS 防护与 Web 应用防火墙。',
    apiDocs: 'API 文档',
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
