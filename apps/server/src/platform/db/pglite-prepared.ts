import { type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { withOverrides } from './overrides.js';

/**
 * PGlite runs each query as six protocol exchanges with its WebAssembly PostgreSQL (Parse, Describe
 * statement, Bind, Describe portal, Execute, Sync), and PostgreSQL parses and analyses the text
 * again each time. The returned client prepares each data statement once, as a named statement,
 * and runs it again as one exchange (Bind, Execute, Sync) with the parameter types and row
 * description it learned when preparing it: measured on these machines, a primary-key select
 * 290–360 µs a query before, 95–180 µs after; an update 290–310 µs before, 120–140 after.
 *
 * What stays the same: the values (PGlite's own serializers, by the parameter types PostgreSQL
 * describes, and its parsers), the errors (PGlite's DatabaseError, with the query, its parameters
 * and options on it, as PGlite's own query sets them), the locking (a query outside a transaction
 * waits for transactions; one in a transaction runs in it) and the write to disk after a query
 * outside a transaction.
 *
 * And the plans: a named statement would get PostgreSQL's generic plan after five runs when that
 * looks no costlier, and a generic plan is made without the values: it cannot tell a rare value
 * from a common one (measured at 100,000 domains with that default: 58 → 216 ms of CPU per change;
 * which statements went wrong was not traced). The session is
 * set to plan each run for its values (`plan_cache_mode = force_custom_plan`), as PGlite's unnamed
 * statements were: the parsing and the exchanges are saved, not the planning. (The trigger
 * functions keep PostgreSQL's default: `openPglite` in database.ts.) See docs/decisions.md.
 *
 * Only data statements (select, insert, update, delete, with) of at most `maxText` characters and
 * `maxParams` parameters are prepared; others (DDL, SET, COPY, a bulk insert's one-off text) go to
 * PGlite's own query. At most `maxStatements` are kept, the least recently used closed first.
 */
export interface PreparedOptions {
  maxStatements?: number;
  maxText?: number;
  maxParams?: number;
}

interface Statement {
  readonly name: string;
  readonly types: readonly number[];
  /** The statement's row description (absent for a statement that returns no rows). */
  readonly fields: InstanceType<typeof protocol.messages.RowDescriptionMessage> | undefined;
}

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * Errors after which a statement is prepared again: PostgreSQL's "cached plan must not change result
 * type" (a column's type changed under it) and "prepared statement does not exist" (the session's
 * statements were deallocated).
 */
const PREPARE_AGAIN = new Set(['0A000', '26000']);
/** Statement names are unique in the process: several clients may share one PGlite session. */
let counter = 0;
/** A plan for each run's values (see above); set outside a transaction, where it cannot be rolled back. */
const CUSTOM_PLANS = 'SET plan_cache_mode = force_custom_plan';

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function withPreparedStatements(pg: PGlite, options: PreparedOptions = {}): PGlite {
  const maxStatements = options.maxStatements ?? 512;
  const maxText = options.maxText ?? 16_384;
  const maxParams = options.maxParams ?? 256;
  const { serialize } = protocol;
  /** By text; a Map keeps insertion order, so its first key is the least recently used. */
  const statements = new Map<string, Statement>();
  /** Close messages of evicted statements, sent with the next exchange. */
  let closing: Uint8Array[] = [];
  /** Whether the session plans each run (CUSTOM_PLANS was run outside a transaction). */
  let customPlans = false;

  const exchange = (messages: Uint8Array[]) => pg.execProtocolStream(concat(messages), { syncToFs: false });

  const evict = (text: string) => {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    closing.push(serialize.close({ type: 'S', name: statement.name }));
  };

  const prepare = async (text: string): Promise<Statement> => {
    const name = `rampart_${++counter}`;
    const sent = closing;
    closing = [];
    const messages = await exchange([
      ...sent,
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    const fields = messages.find(
      (m): m is InstanceType<typeof protocol.messages.RowDescriptionMessage> => m.name === 'rowDescription',
    );
    const statement: Statement = { name, types: parse.parseDescribeStatementResults(messages), fields };
    statements.set(text, statement);
    if (statements.size > maxStatements) evict(statements.keys().next().value as string);
    return statement;
  };

  /** One data statement, the caller holding PGlite's query lock. */
  const run = async (text: string, params: unknown[], queryOptions: QueryOptions | undefined): Promise<Results> => {
    let statement = statements.get(text);
    try {
      if (statement) {
        // Most recently used: moved to the end.
        statements.delete(text);
        statements.set(text, statement);
      } else {
        statement = await prepare(text);
      }
      const types = statement.types;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const oid = types[i] as number;
        const serializer = queryOptions?.serializers?.[oid] ?? pg.serializers[oid];
        return serializer ? serializer(value) : String(value);
      });
      const sent = closing;
      closing = [];
      const messages = await exchange([
        ...sent,
        serialize.bind({ statement: statement.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      if (statement.fields) messages.unshift(statement.fields);
      return parse.parseResults(messages, pg.parsers, queryOptions)[0] as Results;
    } catch (error) {
      if (error instanceof protocol.messages.DatabaseError) {
        if (PREPARE_AGAIN.has(error.code ?? '')) evict(text);
        // As PGlite's own query gives its errors.
        Object.assign(error, { query: text, params, queryOptions });
      }
      throw error;
    }
  };

  const preparable = (text: string, params: unknown[] | undefined, queryOptions: QueryOptions | undefined) =>
    text.length <= maxText &&
    (params?.length ?? 0) <= maxParams &&
    !queryOptions?.blob &&
    !queryOptions?.paramTypes &&
    DATA_STATEMENT.test(text);

  const query: Query = async (text, params, queryOptions) => {
    if (!preparable(text, params, queryOptions)) return pg.query(text, params, queryOptions);
    await pg._checkReady();
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        // (A BEGIN sent by hand would hold it off until a statement outside the transaction.)
        if (!customPlans && !pg.isInTransaction()) {
          await exchange([serialize.query(CUSTOM_PLANS)]);
          customPlans = true;
        }
        let result: Results;
        try {
          result = await run(text, params ?? [], queryOptions);
        } catch (error) {
          // A statement whose result type changed (a migration altered a column) or that the session
          // no longer has is prepared again once; in a transaction the error stands, as it aborted
          // the transaction.
          if (!(error instanceof protocol.messages.DatabaseError && PREPARE_AGAIN.has(error.code ?? ''))) throw error;
          result = await run(text, params ?? [], queryOptions);
        }
        await pg.syncToFs();
        return result;
      }),
    );
  };

  const inTransaction = (tx: Transaction): Transaction => {
    const txQuery: Query = async (text, params, queryOptions) => {
      // Until the session plans each run, a transaction's statements are PGlite's own.
      if (!customPlans || !preparable(text, params, queryOptions)) return tx.query(text, params, queryOptions);
      if (tx.closed) throw new Error('Transaction is closed');
      return pg._runExclusiveQuery(() => run(text, params ?? [], queryOptions));
    };
    return withOverrides(tx, { query: txQuery });
  };

  const transaction = <T>(fn: (tx: Transaction) => Promise<T>) => pg.transaction((tx) => fn(inTransaction(tx)));

  return withOverrides(pg, { query, transaction });
}
