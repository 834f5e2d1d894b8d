/** Recently opened/saved paths, newest first, kept in localStorage (per browser profile). */
const KEY = 'weir.recent.v1';
const MAX = 8;

export function recentPaths(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function pushRecent(path: string): void {
  const next = [path, ...recentPaths().filter((p) => p !== path)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    /* storage full or disabled: recent is a convenience */
  }
}
