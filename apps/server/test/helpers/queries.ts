import pg from 'pg';
import type { TestApp } from './test-app.js';

/** Every SQL text run on the test's database while `fn` runs (either driver). */
export async function queriesDuring(t: TestApp, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const record = (text: unknown) => {
    const q = typeof text === 'string' ? text : (text as { text?: string } | null)?.text;
    if (typeof q === 'string') seen.push(q);
  };
  const source = t.db.database.source;
  if (source.kind === 'pglite') {
    // What reaches PGlite's PostgreSQL, read off the protocol: the server prepares its statements
    // once (platform/db/pglite-prepared.ts) and runs them by name, and PGlite's transactions do not
    // go through its query method.
    const client = source.client;
    const stream = client.execProtocolStream;
    const names = new Map<string, string>();
    const pending: { at: number; name: string }[] = [];
    client.execProtocolStream = function (this: unknown, message: Uint8Array, ...rest: unknown[]) {
      for (const m of frontendMessages(message)) {
        if (m.type === 'Q') seen.push(m.text);
        else if (m.type === 'P' && m.name === '') seen.push(m.text);
        else if (m.type === 'P') names.set(m.name, m.text);
        else if (m.type === 'B' && m.name !== '') {
          const text = names.get(m.name);
          if (text !== undefined) seen.push(text);
          else pending.push({ at: seen.push(''), name: m.name });
        }
      }
      return (stream as (...args: unknown[]) => unknown).call(this, message, ...rest);
    } as never;
    try {
      await fn();
    } finally {
      client.execProtocolStream = stream;
    }
    if (pending.length > 0) {
      // Statements prepared before `fn`: PostgreSQL knows their texts.
      const prepared = await client.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements',
      );
      for (const row of prepared.rows) names.set(row.name, row.statement);
      for (const { at, name } of pending) seen[at - 1] = names.get(name) ?? `<statement ${name}>`;
    }
    return seen;
  }
  // Every statement reaches a connection's query (the pool's own query checks one out; the server's
  // connections look the class's query up at each call: platform/db/database.ts serialiseQueries).
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, text: unknown, ...rest: unknown[]) {
    record(text);
    return (query as (...args: unknown[]) => unknown).call(this, text, ...rest);
  } as never;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}

type FrontendMessage = { type: 'Q' | 'P' | 'B'; name: string; text: string } | { type: 'other'; name: ''; text: '' };

/** The simple queries, parses and binds of a buffer of PostgreSQL's frontend messages. */
function* frontendMessages(buffer: Uint8Array): Generator<FrontendMessage> {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const decoder = new TextDecoder();
  let at = 0;
  while (at + 5 <= buffer.length) {
    const type = String.fromCharCode(buffer[at] as number);
    const length = view.getInt32(at + 1);
    const body = at + 5;
    const cstring = (from: number): [string, number] => {
      const end = buffer.indexOf(0, from);
      return [decoder.decode(buffer.subarray(from, end)), end + 1];
    };
    if (type === 'Q') yield { type, name: '', text: cstring(body)[0] };
    else if (type === 'P') {
      const [name, next] = cstring(body);
      yield { type, name, text: cstring(next)[0] };
    } else if (type === 'B') {
      const [, next] = cstring(body); // the portal
      yield { type, name: cstring(next)[0], text: '' };
    } else yield { type: 'other', name: '', text: '' };
    at += 1 + length;
  }
}
