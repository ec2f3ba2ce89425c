import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A STAND-IN for the Telegram Bot API, not Telegram: the real API (api.telegram.org) cannot be
 * reached from the test machine, so this loopback HTTP server answers `getMe` and `sendMessage` the
 * way the Bot API documents them (`{ ok, result }` or `{ ok: false, error_code, description }`),
 * for one bot token and the chats it is told exist, and keeps the messages it was sent.
 */
export interface TelegramStandIn {
  /** The base URL to give the control plane (`telegramApiUrl`). */
  readonly url: string;
  readonly token: string;
  readonly messages: { chatId: string; text: string }[];
  /** Answers the next `n` sendMessage calls with 502 (a retry test). */
  failNext(n: number): void;
  close(): Promise<void>;
}

export async function startTelegramStandIn(chats: readonly string[]): Promise<TelegramStandIn> {
  const token = '123456789:AAStandInTokenForTestsOnly_0123456789';
  const messages: { chatId: string; text: string }[] = [];
  let failing = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!m) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
      if (m[1] !== token) return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { chat_id?: string; text?: string };
      if (m[2] === 'getMe')
        return answer(200, { ok: true, result: { id: 123456789, is_bot: true, username: 'rampart_standin_bot' } });
      if (m[2] === 'sendMessage') {
        if (failing > 0) {
          failing--;
          return answer(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
        }
        const chatId = String(body.chat_id ?? '');
        if (!chats.includes(chatId))
          return answer(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
        messages.push({ chatId, text: String(body.text ?? '') });
        return answer(200, { ok: true, result: { message_id: messages.length } });
      }
      return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    messages,
    failNext(n) {
      failing = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
