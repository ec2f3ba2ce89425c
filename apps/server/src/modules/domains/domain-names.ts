/** The names a domain's CNAME checks use, from its name and its random CNAME label. */
interface Named {
  name: string;
  cnameLabel: string;
}

/** The CNAME target of a domain: its label under the operator's CNAME domain. */
export function cnameTarget(row: Pick<Named, 'cnameLabel'>, cnameDomain: string): string {
  return `${row.cnameLabel}.${cnameDomain}`;
}

/**
 * The name a CNAME check resolves for a domain: the name itself, or for a wildcard `*.example.com`
 * the name `<label>.example.com`, which the customer's wildcard record answers (a name nobody else uses).
 */
export function cnameQueryName(row: Named): string {
  return row.name.startsWith('*.') ? `${row.cnameLabel}${row.name.slice(1)}` : row.name;
}
