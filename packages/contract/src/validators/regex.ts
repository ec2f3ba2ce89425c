/**
 * Whether PCRE2, as the edge runs it (nginx's ngx.re with options "jo": byte mode, no UTF, no
 * extended syntax), compiles a customer's path pattern, for the characters a module pattern may
 * hold (MODULE_REGEX_RE). JavaScript's RegExp is not a stand-in: it accepts `[]`, `[^]`, `[a-\d]`,
 * `a{1,100000}` and `[:alpha:]`, all of which PCRE2 refuses, and it reads `[]a]` as something else.
 * The parser below follows PCRE2's rules for that alphabet; a test compiles the same corpus in a
 * real nginx and requires both to agree.
 *
 * On top of PCRE2's own rules, the subset refuses what both engines would read differently or
 * that has no use in a path pattern: `(?` and `(*` constructs (lookaround, named groups, inline
 * options, verbs) and any backslash escape but the class letters d D w W s S and escaped
 * punctuation (no back-references, \x, \Q, \b, \A ...).
 */

/** Largest repeat count PCRE2 accepts in `{n,m}`. */
export const PCRE_QUANTIFIER_MAX = 65535;

const CLASS_ESCAPES = 'dDwWsS';
const PUNCTUATION_ESCAPES = './\\-^$|?*+()[]{}';
const POSIX_CLASSES = new Set([
  'alpha',
  'digit',
  'alnum',
  'ascii',
  'blank',
  'cntrl',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
]);

export type RegexProblem =
  | 'subset' // outside the allowed subset (a construct refused by policy)
  | 'syntax'; // PCRE2 would not compile it

/**
 * PCRE2's check_posix_syntax: at `[` followed by `:`, `.` or `=`, a POSIX item runs up to the
 * same character followed by `]`, with no `]` (or `[` of another item) in between. Returns the
 * index just past the item, or -1.
 */
function posixItemEnd(s: string, open: number): number {
  const kind = s[open + 1];
  if (kind !== ':' && kind !== '.' && kind !== '=') return -1;
  for (let i = open + 2; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && (s[i + 1] === ']' || s[i + 1] === '\\')) {
      i++;
      continue;
    }
    if (c === '[' && (s[i + 1] === ':' || s[i + 1] === '.' || s[i + 1] === '=')) return -1;
    if (c === ']') return -1;
    if (c === kind && s[i + 1] === ']') return i + 2;
  }
  return -1;
}

/** A class member: one byte value, or a class escape / POSIX class (which cannot bound a range). */
type Member = { kind: 'char'; code: number } | { kind: 'set' };

/** Parses the class starting at `s[start] === '['`; returns the index past its `]`, or a problem. */
function parseClass(s: string, start: number): number | RegexProblem {
  let i = start + 1;
  if (s[i] === '^') i++;
  let first = true;
  let previous: Member | null = null;
  let pendingRange = false;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ']' && !first) {
      // A trailing hyphen is literal; a range left open before `]` is not possible here.
      return i + 1;
    }
    first = false;
    let member: Member;
    if (c === '[') {
      const end = posixItemEnd(s, i);
      if (end > 0) {
        if (s[i + 1] !== ':') return 'syntax'; // collating elements are not supported
        if (!POSIX_CLASSES.has(s.slice(i + 2, end - 2).replace(/^\^/, ''))) return 'syntax';
        member = { kind: 'set' };
        i = end;
      } else {
        member = { kind: 'char', code: c.charCodeAt(0) };
        i++;
      }
    } else if (c === '\\') {
      const next = s[i + 1];
      if (next === undefined) return 'syntax';
      if (CLASS_ESCAPES.includes(next)) member = { kind: 'set' };
      else if (PUNCTUATION_ESCAPES.includes(next)) member = { kind: 'char', code: next.charCodeAt(0) };
      else return 'subset';
      i += 2;
    } else if (c === '-' && previous?.kind === 'char' && !pendingRange && s[i + 1] !== ']' && i + 1 < s.length) {
      // A hyphen after a character starts a range (which may not end in a class escape); after a
      // class escape or a POSIX class it is a literal hyphen.
      pendingRange = true;
      i++;
      continue;
    } else {
      member = { kind: 'char', code: c.charCodeAt(0) };
      i++;
    }
    if (pendingRange) {
      if (member.kind === 'set' || previous?.kind !== 'char') return 'syntax';
      if (member.code < previous.code) return 'syntax';
      pendingRange = false;
      // A range ends a member: a following hyphen is literal (`[a-c-e]` is a, b, c, -, e).
      previous = null;
      continue;
    }
    previous = member;
  }
  return 'syntax'; // missing terminating ]
}

/** `{n}`, `{n,}` or `{n,m}` at `s[i] === '{'`: the index past it and its bounds, or null when `{` is a literal. */
function quantifierAt(s: string, i: number): { end: number; min: number; max: number | null } | null {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i));
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
  return { end: i + m[0].length, min, max };
}

/** Null when PCRE2 compiles the pattern and it is inside the subset; otherwise why not. */
export function pcreRegexProblem(source: string): RegexProblem | null {
  let depth = 0;
  // Whether the last item can take a quantifier, and whether a quantifier was just read.
  let repeatable = false;
  let quantified = false;
  let modified = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return 'syntax';
      if (!CLASS_ESCAPES.includes(next) && !PUNCTUATION_ESCAPES.includes(next)) return 'subset';
      i += 2;
      repeatable = true;
      quantified = false;
    } else if (c === '[') {
      if (posixItemEnd(source, i) > 0) return 'syntax'; // a POSIX class outside a class
      const end = parseClass(source, i);
      if (typeof end !== 'number') return end;
      i = end;
      repeatable = true;
      quantified = false;
    } else if (c === '(') {
      const next = source[i + 1];
      if (next === '?' || next === '*') return 'subset';
      depth++;
      i++;
      repeatable = false;
      quantified = false;
    } else if (c === ')') {
      if (depth === 0) return 'syntax';
      depth--;
      i++;
      repeatable = true;
      quantified = false;
    } else if (c === '|') {
      i++;
      repeatable = false;
      quantified = false;
    } else if (c === '*' || c === '+' || c === '?' || (c === '{' && quantifierAt(source, i))) {
      if (quantified) {
        // One `+` (possessive) or `?` (lazy) may follow a quantifier; anything more is an error.
        if ((c === '+' || c === '?') && !modified) {
          modified = true;
          i++;
          continue;
        }
        return 'syntax';
      }
      if (!repeatable) return 'syntax';
      if (c === '{') {
        const q = quantifierAt(source, i) as { end: number; min: number; max: number | null };
        if (q.min > PCRE_QUANTIFIER_MAX || (q.max ?? 0) > PCRE_QUANTIFIER_MAX) return 'syntax';
        if (q.max !== null && q.max < q.min) return 'syntax';
        i = q.end;
      } else {
        i++;
      }
      quantified = true;
      modified = false;
    } else {
      // A literal (`{` not starting a quantifier, `}`, `]` included) or `.`; the anchors `^` and
      // `$` cannot be repeated.
      i++;
      repeatable = c !== '^' && c !== '$';
      quantified = false;
    }
  }
  return depth === 0 ? null : 'syntax';
}

/**
 * Whether a pattern that {@link pcreRegexProblem} accepts can backtrack without bound: a group
 * repeated without an upper bound of one (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that itself holds
 * a repeat or an alternation — `(a+)+`, `(a|a)*`, `(.*x)*`. Such patterns take exponential time on
 * a crafted URL; the edge's `lua_regex_match_limit` would stop them, but as a failed match, so the
 * rule would silently stop matching. Refusing them up front is the clear answer. Patterns with one
 * level of repetition (`.*`, `(www|api)\.example\.com(.*)`) stay linear enough for a URL.
 */
export function regexCanRunAway(source: string): boolean {
  // For each open group: whether it holds a repeat or an alternation.
  const groups: boolean[] = [];
  let i = 0;
  const markOpenGroups = () => {
    for (let g = 0; g < groups.length; g++) groups[g] = true;
  };
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[') {
      // Skip the class: pcreRegexProblem has already checked its syntax.
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') {
          const end = posixItemEnd(source, j);
          if (end > 0) {
            j = end;
            continue;
          }
        }
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === '(') {
      groups.push(false);
      i++;
      continue;
    }
    if (c === '|') {
      if (groups.length > 0) groups[groups.length - 1] = true;
      i++;
      continue;
    }
    if (c === ')') {
      const inner = groups.pop() ?? false;
      const next = source[i + 1];
      let unbounded = next === '*' || next === '+';
      if (next === '{') {
        const q = quantifierAt(source, i + 1);
        unbounded = q !== null && (q.max === null || q.max > 1);
      }
      if (inner && unbounded) return true;
      // The group itself, repeated or not, is a repeat inside any enclosing group.
      if (inner || unbounded || next === '?') markOpenGroups();
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || (c === '{' && quantifierAt(source, i))) markOpenGroups();
    i++;
  }
  return false;
}
