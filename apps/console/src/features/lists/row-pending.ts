/** A mutation as a row's buttons see it (a TanStack Query mutation result). */
interface RowMutation {
  isPending: boolean;
  variables: unknown;
}

/**
 * True while `mutation` runs for the one row `id` alone, so only that row's button spins: the
 * mutation was called with the id, with `[id]`, or with the row itself (`{ id }`).
 */
export function pendingFor(mutation: RowMutation, id: number): boolean {
  if (!mutation.isPending) return false;
  const input = mutation.variables;
  if (typeof input === 'number') return input === id;
  if (Array.isArray(input)) return input.length === 1 && input[0] === id;
  return typeof input === 'object' && input !== null && 'id' in input && input.id === id;
}
