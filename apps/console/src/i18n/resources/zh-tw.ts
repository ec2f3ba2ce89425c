import type { LocaleResources } from './en-us';

/** 繁體中文 interface texts (the fallback language). */
export const zhTW: LocaleResources = {
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
  },
  home: {
    description: '自架的 CDN、DDoS 防護與 Web 應用程式防火牆。',
    apiDocs: 'API 文件',
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
