import type { Locale } from '@rampart/contract';
import type { Mail } from '../../platform/mail/mailer.js';

/**
 * The console link of a create-password mail. It names the account's operator (`&operator=`), so
 * the console's login after it names the operator too: account names are unique only within one.
 */
export function createPasswordLink(baseUrl: string, tier: string, token: string, operator: string | undefined): string {
  const query = `token=${encodeURIComponent(token)}${operator ? `&operator=${encodeURIComponent(operator)}` : ''}`;
  return `${baseUrl.replace(/\/$/, '')}/${tier}/verifyMail?${query}`;
}

/** The sign-in e-mails, in the reader's language. */
export function loginCodeMail(to: string, code: string, locale: Locale, product: string): Mail {
  const texts: Record<Locale, { subject: string; text: string }> = {
    en_US: {
      subject: `${product} sign-in code: ${code}`,
      text: `Your ${product} sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, change your password.`,
    },
    zh_CN: {
      subject: `${product} 登录验证码：${code}`,
      text: `您的 ${product} 登录验证码是 ${code}，10 分钟内有效。\n\n如果这不是您本人的登录，请修改密码。`,
    },
    zh_TW: {
      subject: `${product} 登入驗證碼：${code}`,
      text: `您的 ${product} 登入驗證碼是 ${code}，10 分鐘內有效。\n\n如果這不是您本人的登入，請變更密碼。`,
    },
  };
  return { to, ...texts[locale] };
}

/** The code that confirms a change of the e-mail second factor (phase 0 of the set-up). */
export function setupCodeMail(to: string, code: string, locale: Locale, product: string): Mail {
  const texts: Record<Locale, { subject: string; text: string }> = {
    en_US: {
      subject: `${product} code to change your second factor: ${code}`,
      text: `Your ${product} code to change your second factor is ${code}. It expires in 10 minutes.\n\nIf you did not ask to change your second factor, change your password.`,
    },
    zh_CN: {
      subject: `${product} 更改双重验证的验证码：${code}`,
      text: `您用于更改 ${product} 双重验证的验证码是 ${code}，10 分钟内有效。\n\n如果这不是您本人的操作，请修改密码。`,
    },
    zh_TW: {
      subject: `${product} 變更雙重驗證的驗證碼：${code}`,
      text: `您用於變更 ${product} 雙重驗證的驗證碼是 ${code}，10 分鐘內有效。\n\n如果這不是您本人的操作，請變更密碼。`,
    },
  };
  return { to, ...texts[locale] };
}

export function createPasswordMail(to: string, link: string, locale: Locale, product: string): Mail {
  const texts: Record<Locale, { subject: string; text: string }> = {
    en_US: {
      subject: `Create your ${product} password`,
      text: `An account was created for you on ${product}. Set your password here (the link works once, for 24 hours):\n\n${link}`,
    },
    zh_CN: {
      subject: `设置您的 ${product} 密码`,
      text: `已为您在 ${product} 创建账号。请通过以下链接设置密码（链接仅可使用一次，24 小时内有效）：\n\n${link}`,
    },
    zh_TW: {
      subject: `設定您的 ${product} 密碼`,
      text: `已為您在 ${product} 建立帳號。請透過以下連結設定密碼（連結僅可使用一次，24 小時內有效）：\n\n${link}`,
    },
  };
  return { to, ...texts[locale] };
}
