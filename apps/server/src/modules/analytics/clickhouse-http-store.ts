import type { Row } from './analytics-store.js';

const NUMERIC_TYPE = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/;

/**
 * One ClickHouse server's HTTP interface, spoken with Node's fetch (docs/decisions.md "Traffic
 * analytics on ClickHouse"): statements in the body, an INSERT's rows as the body with the
 * statement in the URL, answers read as `FORMAT JSON`.
 */
export class ClickHouseHttp {
  /** Base address without credentials, path or query. */
  private readonly endpoint: string;
  private readonly authorization: string | null;

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
    this.endpoint = `${url.protocol}//${url.host}/`;
  }

  /**
   * One HTTP request: `sql` in the body, or in the URL when `data` is the body (an INSERT's rows).
   * Answers the response text; an error status throws with ClickHouse's message.
   */
  async request(
    sql: string,
    options: { data?: string; settings?: Record<string, string>; database?: string | null } = {},
  ): Promise<string> {
    const params = new URLSearchParams({ ...this.settings, ...options.settings });
    const database = options.database === undefined ? this.database : options.database;
    if (database !== null) params.set('database', database);
    if (options.data !== undefined) params.set('query', sql);
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (this.authorization) headers.authorization = this.authorization;
    const response = await fetch(`${this.endpoint}?${params}`, {
      method: 'POST',
      headers,
      body: options.data ?? sql,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`ClickHouse (${response.status}): ${text.trim().slice(0, 1000)}`);
    }
    return text;
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
