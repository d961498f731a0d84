/** Walking PostgreSQL parse trees (libpg-query's JSON): every node, iteratively. */

/** Calls `visit` for every object of the tree with the key it sits under (node type or field name). */
export function walk(root: unknown, visit: (key: string, node: Record<string, unknown>) => void): void {
  // Iterative: a deeply nested expression must not exhaust the JS stack.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!value || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    const object = value as Record<string, unknown>;
    for (const key in object) {
      const child = object[key];
      if (!child || typeof child !== 'object') continue;
      if (!Array.isArray(child)) visit(key, child as Record<string, unknown>);
      stack.push(child);
    }
  }
}
