import type { z } from 'zod';
import type { L4PortRules } from '../edge/l4-rules.js';
import { type KindCallsSpec, kindRoutes, readerOf, unreadableFields } from './rule-kind.js';

/**
 * A layer-4 rule kind of the site firewall declared once, as the layer-7 kinds are (rule-kind.ts,
 * whose calls, reading and storing it shares): its row carries a site port besides the site (the
 * input's `portID`, the `port_id` column; the reply shows the port's number and protocol), and what
 * it feeds is a field of that port in the node's layer-4 document (edge/l4-rules.ts), not a list of
 * the site's edge firewall:
 * - `addresses` fields (`whitelist`, `blacklist`) merge every rule of the kind on the port, each
 *   address once; their rules count together against the port's address limit;
 * - `one` fields (`regions`, `connectionLimit`) take the port's oldest enabled rule; a port takes
 *   one enabled rule of such a kind.
 */

/** A stored layer-4 rule's row as the server reads it: the `rule` column, its port and the common fields. */
export interface L4RuleRow {
  id: number;
  siteId: number;
  portId: number;
  /** The port's number and protocol (joined). */
  port: number;
  protocol: string;
  rule: unknown;
  memo: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Reply fields that come from the row, not from its `rule` column. */
type L4RowFields = 'id' | 'siteID' | 'portID' | 'port' | 'protocol' | 'memo' | 'createdAt' | 'updatedAt';

/** The wanted regions of a port, before the operator's geo database turns them into CIDR blocks. */
export interface L4WantedRegions {
  mode: 'allow' | 'deny';
  codes: string[];
}
type OneField = { regions: L4WantedRegions; connectionLimit: NonNullable<L4PortRules['connectionLimit']> };

/** What a kind feeds on its port. */
export type L4EdgeSpec<R> =
  | { addresses: 'whitelist' | 'blacklist'; of: (rule: R) => string[] }
  | {
      [F in keyof OneField]: { one: F; enabled: (rule: R) => boolean; entry: (rule: R) => OneField[F] };
    }[keyof OneField];

export interface L4RuleKindSpec<
  K extends string,
  I extends z.ZodType<{ portID: number; memo: string }>,
  U extends z.ZodType,
  O extends z.ZodObject,
  S extends z.ZodType<object>,
> extends KindCallsSpec<I, U, O> {
  /** The value of the layer-4 rules table's `kind` column. */
  kind: K;
  /** The `rule` column: what an input keeps, its port and memo apart (they have columns). */
  stored: S;
  /** Shapes an input before it is stored, when it takes more than dropping the port and memo. */
  store?: (rule: Omit<z.output<I>, 'portID' | 'memo'>) => z.input<S>;
  /** The reply's own fields for a stored rule (the row gives the rest). */
  reply: (rule: z.output<S>) => Omit<z.output<O>, L4RowFields>;
  edge: L4EdgeSpec<z.output<S>>;
}

/** A row's part of its port's layer-4 rules, or why it has none: its `rule` column breaks the kind's schema. */
export type L4EdgePart =
  | { addresses: 'whitelist' | 'blacklist'; entry: string[] }
  | { one: 'regions'; enabled: boolean; entry: L4WantedRegions }
  | { one: 'connectionLimit'; enabled: boolean; entry: OneField['connectionLimit'] }
  | { unreadable: string };

export function defineL4RuleKind<
  K extends string,
  I extends z.ZodType<{ portID: number; memo: string }>,
  U extends z.ZodType,
  O extends z.ZodObject,
  S extends z.ZodType<object>,
>(spec: L4RuleKindSpec<K, I, U, O, S>) {
  const read = readerOf(spec.stored);
  return {
    ...spec,
    routes: kindRoutes(spec),
    read,
    /** What an input stores: its port, its `rule` column and its memo. */
    toStored(input: z.output<I>): { portId: number; rule: z.output<S>; memo: string } {
      const { portID, memo, ...rest } = input;
      return { portId: portID, rule: spec.stored.parse(spec.store ? spec.store(rest) : rest), memo };
    },
    /** The API's reply for a row. */
    present(row: L4RuleRow): z.output<O> {
      return {
        id: row.id,
        siteID: row.siteId,
        portID: row.portId,
        port: row.port,
        protocol: row.protocol,
        memo: row.memo,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        ...spec.reply(read(row)),
      } as z.output<O>;
    },
    /** Whether a stored rule counts against its port's one enabled rule of the kind (an unreadable one does). */
    enabledOf(row: Pick<L4RuleRow, 'rule'>): boolean {
      const edge = spec.edge;
      if (!('one' in edge)) return false;
      const parsed = spec.stored.safeParse(row.rule);
      return !parsed.success || edge.enabled(parsed.data);
    },
    /** How many addresses a stored or new rule holds on its port (0 for a kind that feeds none). */
    addressesOf(row: Pick<L4RuleRow, 'rule'>): number {
      const edge = spec.edge;
      return 'addresses' in edge ? edge.of(read(row)).length : 0;
    },
    /** The row's part of its port's rules on the edge. */
    edgeOf(row: Pick<L4RuleRow, 'rule'>): L4EdgePart {
      const parsed = spec.stored.safeParse(row.rule);
      if (!parsed.success) return { unreadable: unreadableFields(parsed.error) };
      const edge = spec.edge;
      if ('addresses' in edge) return { addresses: edge.addresses, entry: edge.of(parsed.data) };
      return { one: edge.one, enabled: edge.enabled(parsed.data), entry: edge.entry(parsed.data) } as L4EdgePart;
    },
  };
}
