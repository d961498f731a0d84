// Drive's `q` search language (https://developers.google.com/drive/api/guides/ref-search-terms),
// the subset a Drive server sends: `name`/`fullText contains '…'`, `name`/`mimeType` `=`/`!=`
// `'…'`, `'<id>' in parents`, `trashed = true|false`, joined by and/or/not and parentheses,
// string literals with `\'` and `\\` escapes. Anything else is refused as Drive refuses it.

/** What a query term looks at in one file. */
export interface Searchable {
  name: string;
  mimeType: string;
  parents: string[];
  trashed: boolean;
  starred?: boolean;
  /** Name, description and text content, for `fullText`. */
  fullText: string;
}

/** A parsed query: true when the file matches. */
export type Predicate = (file: Searchable) => boolean;

/** Thrown for a query outside the subset (the route answers Drive's 400 invalid `q`). */
export class InvalidQuery extends Error {}

type Token = { kind: 'word' | 'string' | 'op' | 'paren'; value: string };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= q.length) throw new InvalidQuery('unterminated string');
        const d = q[i] as string;
        if (d === '\\') {
          const next = q[i + 1];
          if (next !== "'" && next !== '\\') throw new InvalidQuery(`bad escape \\${next ?? ''}`);
          value += next;
          i += 2;
        } else if (d === "'") {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push({ kind: 'string', value });
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: 'paren', value: c });
      i++;
    } else if (c === '!' && q[i + 1] === '=') {
      tokens.push({ kind: 'op', value: '!=' });
      i += 2;
    } else if (c === '=') {
      tokens.push({ kind: 'op', value: '=' });
      i++;
    } else {
      const m = /^[A-Za-z_]+/.exec(q.slice(i));
      if (!m) throw new InvalidQuery(`unexpected ${c}`);
      tokens.push({ kind: 'word', value: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

const lower = (s: string) => s.toLowerCase();

/**
 * Parses `q` into a predicate. Throws {@link InvalidQuery} for anything outside the subset (an
 * unknown field or operator, a bare word, an unterminated literal, a bad escape, an empty query).
 */
export function parseQuery(q: string): Predicate {
  const tokens = tokenize(q);
  let at = 0;
  const peek = () => tokens[at];
  const next = () => {
    const t = tokens[at++];
    if (!t) throw new InvalidQuery('unexpected end');
    return t;
  };
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && lower(t.value) === w;
  const string = () => {
    const t = next();
    if (t.kind !== 'string') throw new InvalidQuery(`expected a quoted value, got ${t.value}`);
    return t.value;
  };

  function term(): Predicate {
    const t = next();
    if (t.kind === 'paren' && t.value === '(') {
      const inner = or();
      const close = next();
      if (close.value !== ')') throw new InvalidQuery('expected )');
      return inner;
    }
    if (isWord(t, 'not')) {
      const inner = term();
      return (f) => !inner(f);
    }
    if (t.kind === 'string') {
      if (!isWord(next(), 'in') || !isWord(next(), 'parents'))
        throw new InvalidQuery("expected 'in parents'");
      return (f) => f.parents.includes(t.value);
    }
    if (t.kind !== 'word') throw new InvalidQuery(`unexpected ${t.value}`);
    const field = t.value;
    const op = next();
    if ((field === 'trashed' || field === 'starred') && op.kind === 'op') {
      const v = next();
      if (v.kind !== 'word' || !['true', 'false'].includes(v.value))
        throw new InvalidQuery(`${field} takes true/false`);
      const want = v.value === 'true';
      const get = (f: Searchable) => (field === 'trashed' ? f.trashed : f.starred === true);
      return op.value === '=' ? (f) => get(f) === want : (f) => get(f) !== want;
    }
    if ((field === 'name' || field === 'fullText') && isWord(op, 'contains')) {
      const needle = lower(string());
      return field === 'name'
        ? (f) => lower(f.name).includes(needle)
        : (f) => lower(f.fullText).includes(needle);
    }
    if ((field === 'name' || field === 'mimeType') && op.kind === 'op') {
      const value = string();
      const get = (f: Searchable) => (field === 'name' ? f.name : f.mimeType);
      return op.value === '=' ? (f) => get(f) === value : (f) => get(f) !== value;
    }
    throw new InvalidQuery(`unsupported term ${field} ${op.value}`);
  }

  function and(): Predicate {
    let left = term();
    while (isWord(peek(), 'and')) {
      next();
      const a = left;
      const b = term();
      left = (f) => a(f) && b(f);
    }
    return left;
  }

  function or(): Predicate {
    let left = and();
    while (isWord(peek(), 'or')) {
      next();
      const a = left;
      const b = and();
      left = (f) => a(f) || b(f);
    }
    return left;
  }

  if (!tokens.length) throw new InvalidQuery('empty query');
  const predicate = or();
  if (at !== tokens.length) throw new InvalidQuery(`unexpected ${tokens[at]?.value}`);
  return predicate;
}
