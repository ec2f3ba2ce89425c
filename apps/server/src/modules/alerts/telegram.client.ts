import { type GuardedAnswer, GuardedRequestError, guardedRequest } from '../../platform/http/guarded-request.js';
import { type OutgoingGuard, OutgoingRefusedError } from '../../platform/http/outgoing.js';
import { TargetRefusedError } from '../../platform/http/target-guard.js';

/** The Bot API's address unless the installation names another (`RAMPART_TELEGRAM_API_URL`). */
export const TELEGRAM_API_URL = 'https://api.telegram.org';
/** A token as BotFather issues them: the bot's id, a colon, 35 characters of secret. */
const TOKEN_RE = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;

/** What the Bot API answers. */
interface BotAnswer {
  ok?: boolean;
  result?: unknown;
  description?: string;
}

/** A refusal: the API's `description`, or why the call did not get an answer. */
export class TelegramError extends Error {}

/**
 * The few calls of the Telegram Bot API that notifications use (`getMe`, `sendMessage`), each
 * bounded by a timeout. The token travels in the path as the API wants it; it never reaches a log
 * or an error message.
 */
export class TelegramClient {
  constructor(
    private readonly outgoing: OutgoingGuard,
    private readonly baseUrl: string = TELEGRAM_API_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  /** A call for `operatorId`: the Bot API must be on its outgoing URL list. */
  private async call(
    operatorId: number,
    token: string,
    method: string,
    body: Record<string, unknown>,
  ): Promise<unknown> {
    if (!TOKEN_RE.test(token)) throw new TelegramError('the token is not a bot token (id:secret)');
    try {
      await this.outgoing.check(operatorId, this.baseUrl);
    } catch (error) {
      if (error instanceof OutgoingRefusedError) throw new TelegramError(error.message);
      throw error;
    }
    let res: GuardedAnswer;
    try {
      // Through the target guard like every outgoing call (platform/http/target-guard.ts).
      res = await guardedRequest(this.outgoing.targets, `${this.baseUrl.replace(/\/+$/, '')}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      if (error instanceof TargetRefusedError || error instanceof GuardedRequestError)
        throw new TelegramError(`the Bot API did not answer (${error.message})`);
      throw error;
    }
    let json: BotAnswer | null = null;
    try {
      json = JSON.parse(res.text) as BotAnswer | null;
    } catch {
      // not JSON: the status says it
    }
    if (!json?.ok) throw new TelegramError(json?.description ?? `the Bot API answered HTTP ${res.status}`);
    return json.result;
  }

  /** The bot's user name; refuses a token the API does not know. */
  async botName(operatorId: number, token: string): Promise<string> {
    const me = (await this.call(operatorId, token, 'getMe', {})) as { username?: string } | null;
    return me?.username ?? '';
  }

  async sendMessage(operatorId: number, token: string, chatId: string, text: string): Promise<void> {
    await this.call(operatorId, token, 'sendMessage', { chat_id: chatId, text, disable_web_page_preview: true });
  }
}
