/**
 * Who may talk to `weir serve`: requests that name our own address as Host (no DNS rebinding),
 * come from our own origin when they say where they come from, and present the per-start token
 * (`?token=` in the URL, then the cookie set from it). The socket upgrade is checked the same way.
 *
 * Rule: nothing a client sends may throw here. Cookies ignore ports, so any page of another
 * 127.0.0.1 server can plant a malformed `weir_token_PORT` cookie; a request target may be any
 * bytes the HTTP parser let through (`http://[x/`). Unparseable input is a refusal (400/403), never
 * an exception (test/faults/serve-fuzz.test.ts sends thousands of such requests).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface ServeAuth {
  readonly token: string;
  readonly cookieName: string;
  /** Set once the server is listening. */
  port: number;
}

export function createServeAuth(token = randomBytes(24).toString('base64url')): ServeAuth {
  return { token, cookieName: 'weir_token', port: 0 };
}

export type AuthVerdict =
  { ok: true; via: 'query' | 'cookie'; url: URL } | { ok: false; status: 400 | 403 | 421; reason: string };

/** The request target as a URL, or null when it is not one (`http://[x/`, a bare `*`...). */
export function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed escape (`%E0%A4%A`) is no token rather than a URIError.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function checkRequest(auth: ServeAuth, req: IncomingMessage): AuthVerdict {
  const hosts = allowedHosts(auth.port);
  if (!req.headers.host || !hosts.includes(req.headers.host.toLowerCase())) {
    return { ok: false, status: 421, reason: `unexpected Host header '${req.headers.host ?? ''}'` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { ok: false, status: 403, reason: `requests from origin '${origin}' are refused` };
  }
  const url = requestUrl(req);
  if (!url) return { ok: false, status: 400, reason: 'malformed request target' };
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null && fromQuery !== '') {
    return sameToken(fromQuery, auth.token)
      ? { ok: true, via: 'query', url }
      : { ok: false, status: 403, reason: 'wrong token' };
  }
  const fromCookie = cookieValue(req.headers.cookie, `${auth.cookieName}_${auth.port}`);
  if (fromCookie !== null && sameToken(fromCookie, auth.token)) return { ok: true, via: 'cookie', url };
  return { ok: false, status: 403, reason: 'missing token: open the address printed by `weir serve`' };
}

/** Cookies ignore ports, so the name carries it: two servers on one machine do not collide. */
export function tokenCookie(auth: ServeAuth): string {
  return `${auth.cookieName}_${auth.port}=${encodeURIComponent(auth.token)}; Path=/; HttpOnly; SameSite=Strict`;
}
