import { Interner } from './interner.js';

/**
 * Strings as indexes, the most used first (fewer digits for the values every record repeats):
 * `ref` gives a placeholder id and notes where it was put; `finish` renumbers by use.
 */
export class StringTable {
  private readonly interner = new Interner();
  private readonly uses: number[] = [];
  private readonly places: { row: number[]; at: number }[] = [];

  ref(row: number[], value: string): void {
    const id = this.interner.id(value);
    this.uses[id] = (this.uses[id] ?? 0) + 1;
    this.places.push({ row, at: row.length });
    row.push(id);
  }

  /** The strings, most used first; every ref renumbered (a negative one, -id - 1, stays negative). */
  finish(): string[] {
    const order = this.interner.values.map((_, i) => i).sort((a, b) => this.uses[b]! - this.uses[a]! || a - b);
    const rank = new Array<number>(order.length);
    for (const [r, id] of order.entries()) rank[id] = r;
    for (const { row, at } of this.places) {
      const v = row[at]!;
      row[at] = v >= 0 ? rank[v]! : -rank[-v - 1]! - 1;
    }
    return order.map((id) => this.interner.values[id]!);
  }
}
