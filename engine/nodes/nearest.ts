/**
 * "Did you mean": the known name nearest to a misspelled one, as an unknown-column message offers
 * it. Browser-safe.
 */

/** Levenshtein distance (insert, delete, substitute: 1 each), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase(),
    y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length];
}

/**
 * The name of `known` nearest to `name`, or null when none is close: at most a third of the
 * longer name's letters differ (at least 1), so `usr` suggests `user` but `x` suggests nothing.
 * Ties go to the first name in `known` order.
 */
export function nearestName(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name, k);
    const limit = Math.max(1, Math.floor(Math.max(name.length, k.length) / 3));
    if (d <= limit && d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** `unknown column 'usr' (columns: id, user, amount, ts; did you mean 'user'?)` */
export function unknownColumnMessage(name: string, known: readonly string[], prefix = ''): string {
  const near = nearestName(name, known);
  const list = known.map((k) => prefix + k).join(', ');
  return `unknown column '${prefix}${name}' (columns: ${list}${near !== null ? `; did you mean '${prefix}${near}'?` : ''})`;
}
