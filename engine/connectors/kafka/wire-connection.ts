/**
 * One TCP connection to one Kafka broker that sends a request and reads its response: framing
 * (int32 size), the request header (v1; v2 for flexible versions adds an empty tagged-field
 * section) and the response header (correlation id; a tagged-field section for flexible versions).
 * Requests go one at a time, so responses arrive in order. Plaintext only, like the brokers Weir
 * starts; kafkajs does everything else (produce, fetch, groups), this carries the few transaction
 * requests kafkajs lacks or hides (transaction-admin.ts).
 */
import { Socket, connect } from 'node:net';
import { WireReader, WireWriter } from './wire-codec.ts';

export interface WireRequest {
  apiKey: number;
  version: number;
  /** Flexible versions (KIP-482) use header v2 / response header v1. */
  flexible: boolean;
  body: Buffer;
}

const CLIENT_ID = 'weir';

export class WireConnection {
  private socket: Socket | null = null;
  private correlation = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly host: string,
    readonly port: number,
    private readonly timeoutMs = 30_000,
  ) {}

  private open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const s = connect({ host: this.host, port: this.port });
      const fail = (e: Error) => {
        s.destroy();
        reject(new Error(`Kafka broker ${this.host}:${this.port}: ${e.message}`));
      };
      s.once('error', fail);
      s.setTimeout(this.timeoutMs, () => fail(new Error('connection timed out')));
      s.once('connect', () => {
        s.off('error', fail);
        s.setTimeout(0);
        s.on('error', () => s.destroy());
        this.socket = s;
        resolve(s);
      });
    });
  }

  /** Sends `req` after every earlier request answered; resolves with the response body. */
  send(req: WireRequest): Promise<WireReader> {
    const next = this.queue.then(() => this.exchange(req));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async exchange(req: WireRequest): Promise<WireReader> {
    const socket = await this.open();
    const correlationId = ++this.correlation;
    const header = new WireWriter().int16(req.apiKey).int16(req.version).int32(correlationId).string(CLIENT_ID);
    if (req.flexible) header.tags();
    const payload = Buffer.concat([header.bytes(), req.body]);
    const frame = new WireWriter().int32(payload.length).bytes();
    const response = await new Promise<Buffer>((resolve, reject) => {
      let got = Buffer.alloc(0);
      const timer = setTimeout(
        () => finish(new Error(`no answer to API ${req.apiKey} in ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      const onData = (d: Buffer) => {
        got = Buffer.concat([got, d]);
        if (got.length >= 4 && got.length >= 4 + got.readInt32BE(0))
          finish(null, got.subarray(4, 4 + got.readInt32BE(0)));
      };
      const onClose = () => finish(new Error('connection closed'));
      const finish = (e: Error | null, body?: Buffer) => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        if (e) {
          socket.destroy();
          reject(new Error(`Kafka broker ${this.host}:${this.port}: ${e.message}`));
        } else resolve(body!);
      };
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.write(Buffer.concat([frame, payload]));
    });
    const reader = new WireReader(response);
    const answered = reader.int32();
    if (answered !== correlationId)
      throw new Error(`Kafka broker ${this.host}:${this.port}: answer ${answered} to request ${correlationId}`);
    if (req.flexible) reader.tags();
    return reader;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}

/** `host:port` -> its parts; a missing port is Kafka's 9092. */
export function parseHostPort(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(address.trim());
  if (!m) throw new Error(`'${address}' is not host:port`);
  return { host: m[1], port: m[2] ? Number(m[2]) : 9092 };
}
