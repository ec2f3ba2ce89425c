import { type AlertKind, formatMessage, type Locale, type Localized } from '@rampart/contract';

/** Subject and text of each kind, in each language; `{name}` placeholders are the alert's params. */
const MESSAGES: Readonly<Record<AlertKind, { subject: Localized; text: Localized }>> = {
  nodeDown: {
    subject: { en_US: 'Node {node} is down', zh_CN: '节点 {node} 已离线', zh_TW: '節點 {node} 已離線' },
    text: {
      en_US: 'The monitors found node {node} ({ip}) down at {at}: {reason}',
      zh_CN: '监控于 {at} 发现节点 {node}（{ip}）离线：{reason}',
      zh_TW: '監控於 {at} 發現節點 {node}（{ip}）離線：{reason}',
    },
  },
  nodeUp: {
    subject: { en_US: 'Node {node} is up again', zh_CN: '节点 {node} 已恢复', zh_TW: '節點 {node} 已恢復' },
    text: {
      en_US: 'The monitors found node {node} ({ip}) answering again at {at}.',
      zh_CN: '监控于 {at} 发现节点 {node}（{ip}）已恢复响应。',
      zh_TW: '監控於 {at} 發現節點 {node}（{ip}）已恢復回應。',
    },
  },
  attackSpike: {
    subject: { en_US: 'Attack on site {site}', zh_CN: '网站 {site} 遭受攻击', zh_TW: '網站 {site} 遭受攻擊' },
    text: {
      en_US:
        'The firewall and WAF blocked {blocked} requests to site {site} in the last {minutes} minutes (alert threshold {threshold}).',
      zh_CN: '防火墙和 WAF 在最近 {minutes} 分钟内拦截了网站 {site} 的 {blocked} 个请求（告警阈值 {threshold}）。',
      zh_TW: '防火牆和 WAF 在最近 {minutes} 分鐘內攔截了網站 {site} 的 {blocked} 個請求（告警門檻 {threshold}）。',
    },
  },
  certificateRenewalFailed: {
    subject: {
      en_US: 'Certificate renewal failed for {domain}',
      zh_CN: '{domain} 的证书续期失败',
      zh_TW: '{domain} 的憑證續期失敗',
    },
    text: {
      en_US: 'The certificate of {domain} could not be renewed: {reason}',
      zh_CN: '{domain} 的证书无法续期：{reason}',
      zh_TW: '{domain} 的憑證無法續期：{reason}',
    },
  },
  licenceExpiring: {
    subject: { en_US: 'Your licence expires soon', zh_CN: '您的许可证即将到期', zh_TW: '您的授權即將到期' },
    text: {
      en_US: 'Your Rampart licence expires on {expiresAt} ({days} days left).',
      zh_CN: '您的 Rampart 许可证将于 {expiresAt} 到期（剩余 {days} 天）。',
      zh_TW: '您的 Rampart 授權將於 {expiresAt} 到期（剩餘 {days} 天）。',
    },
  },
  trafficOverPlan: {
    subject: { en_US: 'Traffic over plan: {site}', zh_CN: '流量超出套餐：{site}', zh_TW: '流量超出方案：{site}' },
    text: {
      en_US: 'Site {site} used {used} this month, over its plan of {plan}.',
      zh_CN: '网站 {site} 本月已用 {used}，超出套餐 {plan}。',
      zh_TW: '網站 {site} 本月已用 {used}，超出方案 {plan}。',
    },
  },
};

export interface AlertMessage {
  readonly subject: string;
  readonly text: string;
}

/** An alert worded in `locale`. */
export function alertMessage(
  kind: AlertKind,
  params: Readonly<Record<string, string | number>>,
  locale: Locale,
): AlertMessage {
  const m = MESSAGES[kind];
  return { subject: formatMessage(m.subject[locale], params), text: formatMessage(m.text[locale], params) };
}
