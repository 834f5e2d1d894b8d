/**
 * Flink's URL functions: URL_ENCODE and URL_DECODE (Java's URLEncoder / URLDecoder with UTF-8,
 * NULL when decoding fails) and PARSE_URL(url, part[, key]) with java.net.URL's parts. A URL Java
 * cannot read (an unknown protocol, no `//` authority where one is needed) gives NULL, as Flink
 * catches the MalformedURLException.
 */
import type { FunctionSpec } from './types.ts';
import { strict, text } from './function-args.ts';

const s = (v: unknown): string => text(v) ?? '';

/** Java's URLEncoder.encode(s, UTF_8): letters, digits and `.-*_` stay, space is `+`, the rest %XX. */
function urlEncode(str: string): string {
  return encodeURIComponent(str)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Java's URLDecoder.decode(s, UTF_8); NULL for a bad escape. */
function urlDecode(str: string): string | null {
  try {
    return decodeURIComponent(str.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The protocols java.net.URL has handlers for by default. */
const JAVA_PROTOCOLS = new Set(['http', 'https', 'ftp', 'file', 'jar', 'mailto']);
/** java.net.URL's parts: scheme://[userinfo@]host[:port]path[?query][#ref], read as Java splits them. */
const URL_SHAPE = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parseUrl(url: string, part: string, key: string | undefined): string | null {
  const m = URL_SHAPE.exec(url);
  if (!m || !JAVA_PROTOCOLS.has(m[1].toLowerCase())) return null;
  const [, protocol, authority, path, query, ref] = m;
  const at = authority?.lastIndexOf('@') ?? -1;
  const hostPort = authority === undefined ? '' : authority.slice(at + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.replace(/:\d*$/, '');
  switch (part) {
    case 'HOST':
      return host;
    case 'PATH':
      return path;
    case 'QUERY': {
      if (query === undefined) return null;
      if (key === undefined) return query;
      // SqlFunctionUtils.parseUrl: the first `key=value` pair, by regular expression.
      for (const pair of query.split('&')) if (pair.startsWith(`${key}=`)) return pair.slice(key.length + 1);
      return null;
    }
    case 'REF':
      return ref ?? null;
    case 'PROTOCOL':
      return protocol;
    case 'AUTHORITY':
      return authority ?? null;
    case 'FILE':
      return query === undefined ? path : `${path}?${query}`;
    case 'USERINFO':
      return at < 0 ? null : authority.slice(0, at);
    default:
      return null;
  }
}

export const URL_FUNCTIONS: Record<string, FunctionSpec> = {
  URL_ENCODE: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'URL_ENCODE(s STRING) → STRING', type: 'STRING' },
    ([a]) => urlEncode(s(a)),
  ),
  URL_DECODE: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'URL_DECODE(s STRING) → STRING', type: 'STRING' },
    ([a]) => urlDecode(s(a)),
  ),
  PARSE_URL: strict(
    {
      min: 2,
      max: 3,
      params: ['STRING', 'STRING', 'STRING'],
      signature:
        'PARSE_URL(url STRING, part STRING[, key STRING]) → STRING (part: HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE, USERINFO)',
      type: 'STRING',
    },
    ([u, p, k]) => parseUrl(s(u), s(p), k === undefined ? undefined : s(k)),
  ),
};
