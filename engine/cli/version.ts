/** Weir's version, read from package.json: `weir --version` prints it and `weir serve` reports it to the host. */
import { readFileSync } from 'node:fs';

/** The package version, or 'unknown' when package.json cannot be read (a trimmed install). */
export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
