import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Row } from './analytics-store.js';

/** A request that failed on a reused idle connection the server had closed before reading it. */
class StaleConnection extends Error {
  constructor(cause: Error) {
    super(`ClickHouse closed an idle connection: ${cause.message}`, { cause });
  }
}

const NUMERIC_TYPE = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/;
/** Comments and blanks before a statement's first word. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const READS = /^(?:SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i;
/** CREATE [one or two words: TABLE, DATABASE, MATERIALIZED VIEW, …] IF NOT EXISTS (not CREATE OR REPLACE). */
const CREATE_IF_NOT_EXISTS = /^CREATE\s+(?!OR\b)(?:[A-Z]+\s+){1,2}IF\s+NOT\s+EXISTS\b/i;

/**
 * Whether running `sql` twice does what running it once does: a read, or a CREATE … IF NOT EXISTS.
 * Anything else (INSERT, INSERT … SELECT, ALTER, OPTIMIZE, DROP, TRUNCATE, …) may not be.
 */
export function isRepeatable(sql: string): boolean {
  const statement = sql.replace(LEADING, '');
  return READS.test(statement) || CREATE_IF_NOT_EXISTS.test(statement);
}

/**
 * One ClickHouse server's HTTP interface, spoken with Node's fetch (docs/decisions.md "Traffic
 * analytics on ClickHouse"): statements in the body, an INSERT's rows as the body with the
 * statement in the URL, answers read as `FORMAT JSON`.
 */
export class ClickHouseHttp {
  /** Base address without credentials, path or query. */
  private readonly endpoint: URL;
  private readonly authorization: string | null;
  /** Idle connections kept for statements (ClickHouse keeps them 10 s; ours go after 4 s). */
  private readonly agent: HttpAgent;

  constructor(
    url: URL,
    readonly database: string,
    private readonly settings: Record<string, string>,
    private readonly timeoutMs: number,
  ) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error('a ClickHouse address must be http:// or https://');
    }
    this.authorization =
      url.username !== ''
        ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
        : null;
    this.endpoint = new URL(`${url.protocol}//${url.host}/`);
    this.agent = new (url.protocol === 'https:' ? HttpsAgent : HttpAgent)({ keepAlive: true, timeout: 4000 });
  }

  /**
   * One HTTP request: `sql` in the body, or in the URL when `data` is the body (an INSERT's rows).
   * Answers the response text; an error status throws with ClickHouse's message.
   *
   * Rows and statements that may not be run twice (isRepeatable) go over a connection of their
   * own (closed after the answer); the others reuse idle connections. ClickHouse closes a
   * connection idle for its keep_alive_timeout (10 s); a client whose event loop was busy past
   * that sends on the closed connection, and a large INSERT then fails with EPIPE while its body
   * is written. A fresh connection cannot meet that. A repeatable statement that meets it on a
   * reused connection (no answer, ECONNRESET or EPIPE) is sent again once on a new one: the
   * server may also have run it and closed before answering ("socket hang up"), which is why
   * only those are.
   */
  async request(
    sql: string,
    options: { data?: string; settings?: Record<string, string>; database?: string | null } = {},
  ): Promise<string> {
    const params = new URLSearchParams({ ...this.settings, ...options.settings });
    const database = options.database === undefined ? this.database : options.database;
    if (database !== null) params.set('database', database);
    if (options.data !== undefined) params.set('query', sql);
    const body = Buffer.from(options.data ?? sql, 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.byteLength),
    };
    if (this.authorization) headers.authorization = this.authorization;
    const fresh = options.data !== undefined || !isRepeatable(sql);
    const signal = AbortSignal.timeout(this.timeoutMs);
    let answer: { status: number; text: string };
    try {
      answer = await this.send(`/?${params}`, headers, body, signal, fresh);
    } catch (error) {
      if (fresh || !(error instanceof StaleConnection)) throw error;
      answer = await this.send(`/?${params}`, headers, body, signal, true);
    }
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(`ClickHouse (${answer.status}): ${answer.text.trim().slice(0, 1000)}`);
    }
    return answer.text;
  }

  private send(
    path: string,
    headers: Record<string, string>,
    body: Buffer,
    signal: AbortSignal,
    fresh: boolean,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = (this.endpoint.protocol === 'https:' ? httpsRequest : httpRequest)(
        this.endpoint,
        {
          method: 'POST',
          path,
          headers: fresh ? { ...headers, connection: 'close' } : headers,
          agent: fresh ? false : this.agent,
          signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        const closed = error.code === 'ECONNRESET' || error.code === 'EPIPE';
        reject(request.reusedSocket && closed ? new StaleConnection(error) : error);
      });
      request.end(body);
    });
  }

  /** Ends the idle connections (the store's close). */
  closeIdle(): void {
    this.agent.destroy();
  }

  /** Runs a statement that answers no rows (`database` null: outside any database). */
  execute(sql: string, database?: string | null): Promise<string> {
    return this.request(sql, { database });
  }

  /** Rows into `target` (a table, or a table and its column list), one per line, in `format`. */
  insert(target: string, rows: readonly string[], format = 'JSONEachRow'): Promise<string> {
    return this.request(`INSERT INTO ${target} FORMAT ${format}`, { data: `${rows.join('\n')}\n` });
  }

  /** Rows of a query we build (`FORMAT JSON` appended). */
  async select(sql: string, readOnly = false): Promise<Row[]> {
    const text = await this.request(`${sql.trim().replace(/;\s*$/, '')}\nFORMAT JSON`, {
      // readonly=2: no writes, but settings may still be given (as the two below).
      settings: {
        ...(readOnly ? { readonly: '2' } : {}),
        output_format_json_quote_64bit_integers: '0',
        // Buffer the whole answer, so that an error mid-query is an error status, not a cut body.
        wait_end_of_query: '1',
      },
    });
    const parsed = JSON.parse(text) as { meta: { name: string; type: string }[]; data: Record<string, unknown>[] };
    const numeric = new Set(parsed.meta.filter((m) => NUMERIC_TYPE.test(m.type)).map((m) => m.name));
    return parsed.data.map((row) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row)) {
        if (v === null || v === undefined) out[k] = 0;
        else if (typeof v === 'number') out[k] = v;
        else if (numeric.has(k)) out[k] = Number(v);
        else out[k] = typeof v === 'string' ? v : JSON.stringify(v);
      }
      return out;
    });
  }
}
