import type { z } from 'zod';
import { EDGE_ACTION_OF, type EdgeRuleAction } from '../edge/challenge.js';
import type { EdgeFirewall } from '../edge/data-plane-firewall.js';
import { firewallRuleRoutes } from '../routes/firewall-lists.js';

/**
 * A firewall rule kind declared once (docs/decisions.md "A firewall rule kind declared once"): what a
 * caller sends (`input`, `update`), what the `rule` JSON column holds (`stored`, read back parsed,
 * never cast), what the API answers (`output`) and what the edge applies (`edge`). From it come the kind's four calls
 * (routes/firewall-lists.ts firewallRuleRoutes), the server's store/present/edge code (one generic
 * service binds every kind) and the console's kind.
 */

/** The lists of a site's edge firewall a rule kind feeds. */
export type EdgeRuleList =
  | 'whitelist'
  | 'blacklist'
  | 'userAgents'
  | 'headers'
  | 'intervals'
  | 'rates'
  | 'antiCC'
  | 'geos';
export type EdgeRuleEntry<L extends EdgeRuleList> = NonNullable<EdgeFirewall[L]>[number];

/** A stored rule's row as the server reads it: the `rule` column plus the fields every kind has. */
export interface RuleRow {
  id: number;
  siteId: number;
  rule: unknown;
  memo: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Reply fields that come from the row, not from its `rule` column. */
type RowFields = 'id' | 'siteID' | 'memo' | 'createdAt' | 'updatedAt';

/**
 * What the edge does for a stored protection mode (edge/challenge.ts EDGE_ACTION_OF); each kind's
 * input admits only its own modes. A value the edge has no action for (a row written by hand) goes
 * out as itself: the data plane's schema refuses it and the snapshot leaves that site out, named to
 * the operator, instead of failing every site of the node (server snapshots/snapshot-fit.ts).
 */
export function edgeActionOf(blockType: number): EdgeRuleAction {
  return EDGE_ACTION_OF[blockType] ?? (`blockType ${blockType}` as EdgeRuleAction);
}

export interface RuleKindSpec<
  K extends string,
  I extends z.ZodType<{ memo: string }>,
  U extends z.ZodType,
  O extends z.ZodObject,
  S extends z.ZodType<object>,
  L extends EdgeRuleList,
> {
  /** The value of the rules table's `kind` column. */
  kind: K;
  /** Path segments of the calls: `plural` lists, adds and deletes, `singular` replaces. */
  plural: string;
  singular: string;
  /** How the calls' summaries name the kind. */
  label: string;
  input: I;
  /** The replace call's body: the input and the rule's `id`. */
  update: U;
  output: O;
  /** The `rule` column: what an input keeps, its memo apart (an object schema strips the rest). */
  stored: S;
  /** Shapes an input before it is stored, when it takes more than dropping the memo. */
  store?: (rule: Omit<z.output<I>, 'memo'>) => z.input<S>;
  /** The reply's own fields for a stored rule (the row gives id, siteID, memo and the times). */
  reply: (rule: z.output<S>) => Omit<z.output<O>, RowFields>;
  edge: {
    list: L;
    /** The rule's entry on the edge, or null when it does not act (a disabled rule). */
    entry: (id: number, rule: z.output<S>) => EdgeRuleEntry<L> | null;
    /** The list is tried by this, higher first, then oldest first. */
    priority?: (rule: z.output<S>) => number;
  };
  /** Catalogue codes the add and replace calls answer beyond the common ones. */
  codes?: { add?: number[]; update?: number[] };
}

/** An edge entry of a stored rule, with the list it goes in and its priority there. */
export interface EdgeRulePlacement {
  list: EdgeRuleList;
  entry: EdgeRuleEntry<EdgeRuleList>;
  priority?: number;
}

/** What every family of rule kinds declares about its calls (rule-kind.ts, l4-rule-kind.ts). */
export interface KindCallsSpec<I extends z.ZodType, U extends z.ZodType, O extends z.ZodObject> {
  plural: string;
  singular: string;
  label: string;
  input: I;
  update: U;
  output: O;
  codes?: { add?: number[]; update?: number[] };
}

/** A kind's four calls (routes/firewall-lists.ts firewallRuleRoutes), its add and replace with their own codes. */
export function kindRoutes<I extends z.ZodType, U extends z.ZodType, O extends z.ZodObject>(
  spec: KindCallsSpec<I, U, O>,
) {
  const base = firewallRuleRoutes(spec.plural, spec.singular, spec.input, spec.update, spec.output, spec.label);
  return {
    ...base,
    add: spec.codes?.add ? ({ ...base.add, codes: spec.codes.add } as typeof base.add) : base.add,
    update: spec.codes?.update ? ({ ...base.update, codes: spec.codes.update } as typeof base.update) : base.update,
  };
}

interface FourCalls {
  list: unknown;
  add: unknown;
  update: unknown;
  delete: unknown;
}

/**
 * A kind's four calls by the names the rest of the code knows them by: `list`, `add` and `delete`
 * with the plural (`listWhitelistRules`), `update` with the singular (`updateWhitelistRule`).
 */
export function namedCalls<R extends FourCalls, P extends string, S extends string>(routes: R, plural: P, singular: S) {
  return {
    [`list${plural}`]: routes.list,
    [`add${plural}`]: routes.add,
    [`update${singular}`]: routes.update,
    [`delete${plural}`]: routes.delete,
  } as { [N in `list${P}`]: R['list'] } & { [N in `add${P}`]: R['add'] } & { [N in `update${S}`]: R['update'] } & {
    [N in `delete${P}`]: R['delete'];
  };
}

/** A row's `rule` column parsed; a row that breaks its kind's schema throws (a reply answers 101002). */
export function readerOf<S extends z.ZodType<object>>(stored: S) {
  return (row: { rule: unknown }): z.output<S> => stored.parse(row.rule);
}

/** The fields of a `rule` column that breaks its kind's schema, for the operator. */
export function unreadableFields(error: z.ZodError): string {
  return error.issues.map((i) => i.path.join('.')).join(', ');
}

export function defineRuleKind<
  K extends string,
  I extends z.ZodType<{ memo: string }>,
  U extends z.ZodType,
  O extends z.ZodObject,
  S extends z.ZodType<object>,
  L extends EdgeRuleList,
>(spec: RuleKindSpec<K, I, U, O, S, L>) {
  const read = readerOf(spec.stored);
  return {
    ...spec,
    routes: kindRoutes(spec),
    read,
    /** What an input stores: its `rule` column and its memo. */
    toStored(input: z.output<I>): { rule: z.output<S>; memo: string } {
      const { memo, ...rest } = input;
      return { rule: spec.stored.parse(spec.store ? spec.store(rest) : rest), memo };
    },
    /** The API's reply for a row. */
    present(row: RuleRow): z.output<O> {
      const fields = spec.reply(read(row));
      return {
        id: row.id,
        siteID: row.siteId,
        ...fields,
        memo: row.memo,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      } as z.output<O>;
    },
    /**
     * The row's edge entry, or null when it does not act. A `rule` column that breaks the kind's
     * schema goes out as an entry the data plane's schema refuses, so the snapshot leaves that site
     * out, named to the operator, as it does for an unknown protection mode (edgeActionOf).
     */
    edgeOf(row: Pick<RuleRow, 'id' | 'rule'>): EdgeRulePlacement | null {
      const parsed = spec.stored.safeParse(row.rule);
      if (!parsed.success) {
        const unreadable = { id: row.id, unreadable: unreadableFields(parsed.error) };
        return { list: spec.edge.list, entry: unreadable as unknown as EdgeRuleEntry<L> };
      }
      const entry = spec.edge.entry(row.id, parsed.data);
      if (entry === null) return null;
      const priority = spec.edge.priority?.(parsed.data);
      return priority === undefined ? { list: spec.edge.list, entry } : { list: spec.edge.list, entry, priority };
    },
  };
}

export type RuleKind = ReturnType<typeof defineRuleKind>;
