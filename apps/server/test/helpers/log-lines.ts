/**
 * The keys of a JSON object's top level in the order written, repeats included: `JSON.parse`
 * keeps only the last of a repeated key, so a log line that writes one twice looks whole once parsed.
 */
export function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"') {
      let end = i + 1;
      while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      let next = end + 1;
      while (line[next] === ' ') next++;
      if (depth === 1 && line[next] === ':') keys.push(JSON.parse(line.slice(i, end + 1)) as string);
      i = end + 1;
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    i++;
  }
  return keys;
}

/** The keys a line writes more than once at its top level. */
export function repeatedKeys(line: string): string[] {
  const keys = topLevelKeys(line);
  return [...new Set(keys.filter((key, index) => keys.indexOf(key) !== index))];
}
