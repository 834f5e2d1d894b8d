/**
 * fast-check arbitraries for what a hostile or broken client may send `weir serve`: raw HTTP
 * requests (bad request lines, targets, headers, cookies, bodies) and raw WebSocket frames, as
 * bytes, so nothing is cleaned up by a client library on the way. Each mixes known killers
 * (`weir_token_PORT=%E0%A4%A`, `GET http://[x/`) with random bytes, and sometimes carries the real
 * token so the malformed part reaches the code behind authentication too.
 */
import fc from 'fast-check';

/** Percent sequences that are not valid UTF-8 or not escapes at all: what decodeURIComponent throws on. */
const badEscape = fc.constantFrom('%', '%E0%A4%A', '%FF', '%C0%AF', '%E0%80', '%zz', '%%', '%ED%A0%80', '%00', '%0');

/** A string mixing ASCII, bad escapes and any code point (lone surrogates included). */
const junk = fc
  .array(fc.oneof(fc.string({ maxLength: 8 }), badEscape, fc.string({ unit: 'binary', maxLength: 4 })), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

export interface ServeTarget {
  port: number;
  token: string;
}

function target(t: ServeTarget): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '/',
      '/ws',
      '*',
      '',
      'http://[x/',
      'http://[::1/ws',
      `http://127.0.0.1:${t.port}/ws`,
      '//',
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/%00',
      '/index.html%00.png',
      `/?token=${t.token}`,
      '/?token=',
      '/?token=%',
      `/ws?token=${t.token}`,
      '/ws?token=%E0%A4%A',
    ),
    junk.map((j) => `/${j}`),
    fc
      .tuple(fc.constantFrom('/', '/ws', '/assets/', 'http://['), junk, fc.boolean())
      .map(([p, j, withToken]) => `${p}${j}${withToken ? `?token=${t.token}` : ''}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
}

function cookie(t: ServeTarget): fc.Arbitrary<string> {
  const name = `weir_token_${t.port}`;
  return fc.oneof(
    fc.constantFrom(`${name}=%E0%A4%A`, `${name}=${t.token}`, `${name}=`, `${name}`, `=${t.token}`, ';;;=;'),
    junk.map((j) => `${name}=${j}`),
    fc.tuple(junk, junk).map(([a, b]) => `${a}=${b}; ${name}=${b}`),
  );
}

function header(t: ServeTarget): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      `Host: 127.0.0.1:${t.port}`,
      `Host: localhost:${t.port}`,
      'Host: [x',
      'Host:',
      'Host: evil.example',
    ),
    cookie(t).map((c) => `Cookie: ${c}`),
    fc.constantFrom('Origin: null', `Origin: http://127.0.0.1:${t.port}`, 'Origin: http://[x', 'Origin: %E0%A4%A'),
    junk.map((j) => `Origin: ${j}`),
    fc.constantFrom(
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Version: 99',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Key: %E0%A4%A',
      'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=0',
      'Sec-WebSocket-Protocol: ,,,',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked, x',
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: 99999999999999999999',
      'Content-Length: 1, 2',
      'Expect: 100-continue',
    ),
    fc.tuple(fc.string({ maxLength: 12 }), junk).map(([k, v]) => `${k}: ${v}`),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
}

/** One raw HTTP/1.x request, as bytes. */
export function rawRequest(t: ServeTarget): fc.Arbitrary<Buffer> {
  return fc
    .record({
      method: fc.oneof(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'PATCH', 'G\u0000T'),
        fc.string({ maxLength: 8 }),
      ),
      target: target(t),
      version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', '', 'http/1.1 x'),
      headers: fc.array(header(t), { maxLength: 8 }),
      eol: fc.constantFrom('\r\n', '\r\n', '\n', '\r'),
      body: fc.oneof(
        fc.constant(new Uint8Array()),
        fc.uint8Array({ maxLength: 300 }),
        junk.map((j) => Buffer.from(j)),
      ),
    })
    .map(({ method, target: tg, version, headers, eol, body }) =>
      Buffer.concat([Buffer.from(`${method} ${tg} ${version}${eol}${headers.join(eol)}${eol}${eol}`), body]),
    );
}

/** A WebSocket frame header + payload, masked or not, with any opcode, reserved bits and length claim. */
export const rawFrame: fc.Arbitrary<Buffer> = fc
  .record({
    fin: fc.boolean(),
    rsv: fc.integer({ min: 0, max: 7 }),
    opcode: fc.integer({ min: 0, max: 15 }),
    masked: fc.boolean(),
    claim: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 125 }), fc.constantFrom(126, 127)),
    payload: fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.constantFrom(Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('{"kind":"call"')),
    ),
  })
  .map(({ fin, rsv, opcode, masked, claim, payload }) => {
    const head = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
    const len = claim === -1 ? payload.length : claim;
    const lenBytes: number[] = [];
    if (len < 126) head.push((masked ? 0x80 : 0) | len);
    else if (len === 126) {
      head.push((masked ? 0x80 : 0) | 126);
      lenBytes.push(0xff, 0xff);
    } else {
      // A 64-bit length of 2^63 - 1: larger than any payload limit.
      head.push((masked ? 0x80 : 0) | 127);
      lenBytes.push(0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    }
    const mask = masked ? [1, 2, 3, 4] : [];
    const body = Buffer.from(payload).map((b, i) => (masked ? b ^ mask[i % 4] : b));
    return Buffer.concat([Buffer.from([...head, ...lenBytes, ...mask]), body]);
  });

/** Text messages over a good socket: not JSON, wrong envelopes, known methods with any params. */
export function rpcMessage(methods: readonly string[]): fc.Arbitrary<string> {
  const id = fc.oneof(fc.nat(), fc.constant(null), fc.string({ maxLength: 4 }), fc.double());
  return fc.oneof(
    junk,
    fc.json({ maxDepth: 3 }),
    fc
      .record({
        kind: fc.constantFrom('call', 'result', 'events', 'x'),
        id,
        method: fc.oneof(fc.constantFrom(...methods), fc.constantFrom('__proto__', 'constructor', 'toString'), junk),
        params: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({ path: fc.oneof(junk, fc.constant('../../etc/passwd')), job: fc.jsonValue({ maxDepth: 2 }) }),
        ),
      })
      .map((m) => JSON.stringify(m)),
    fc.constant('{"kind":"call","id":1,"method":"run","params":{"job":{"__proto__":{"x":1}}}}'),
  );
}
