/**
 * Which Flink SQL Gateways a page may make the host talk to. `flinkRun` takes the gateway's URL from
 * the page, and the host then sends HTTP requests there (open a session, submit statements, poll):
 * without a rule, `weir serve` would be a proxy to any host the machine can reach (SSRF). Allowed:
 * - a gateway on this machine (loopback: localhost, 127.0.0.0/8, ::1), where `weir flink run` and
 *   the local SQL Gateway start;
 * - a URL the user named outside the page: `weir serve --flink-gateway URL` (repeatable), and the
 *   gateway URL saved in the settings (the app's Run on Flink dialog).
 * URLs are compared by origin (scheme, host and port): a path on an allowed gateway is allowed.
 */
import { isIP } from 'node:net';
import { HostError } from '../common/errors.ts';

function origin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether `url`'s host is this machine's loopback interface. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || bare === '::ffff:7f00:1';
  return false;
}

/**
 * Throws `invalid_request` naming the URL and how to allow it unless it is loopback or has the
 * origin of one of `allowed` (empty strings, the settings' "none yet", are ignored).
 */
export function checkGatewayAllowed(url: string, allowed: readonly string[]): void {
  if (isLoopbackUrl(url)) return;
  const want = origin(url);
  if (want !== null && allowed.some((a) => a !== '' && origin(a) === want)) return;
  throw new HostError(
    'invalid_request',
    `the SQL Gateway ${url} is not on this machine and not one the user configured: ` +
      'save it as the gateway in the Run on Flink settings, or start weir serve with --flink-gateway URL',
  );
}
