/**
 * Who may talk to `weir serve`: requests that name our own address as Host (no DNS rebinding),
 * come from our own origin when they say where they come from, and present the per-start token
 * (`?token=` in the URL, then the cookie set from it). The socket upgrade is checked the same way.
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

export type AuthVerdict = { ok: true; via: 'query' | 'cookie' } | { ok: false; status: 403 | 421; reason: string };

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
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
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null && fromQuery !== '') {
    return sameToken(fromQuery, auth.token)
      ? { ok: true, via: 'query' }
      : { ok: false, status: 403, reason: 'wrong token' };
  }
  const fromCookie = cookieValue(req.headers.cookie, `${auth.cookieName}_${auth.port}`);
  if (fromCookie !== null && sameToken(fromCookie, auth.token)) return { ok: true, via: 'cookie' };
  return { ok: false, status: 403, reason: 'missing token: open the address printed by `weir serve`' };
}

/** Cookies ignore ports, so the name carries it: two servers on one machine do not collide. */
export function tokenCookie(auth: ServeAuth): string {
  return `${auth.cookieName}_${auth.port}=${encodeURIComponent(auth.token)}; Path=/; HttpOnly; SameSite=Strict`;
}
