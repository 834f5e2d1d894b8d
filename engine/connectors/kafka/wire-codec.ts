/**
 * The Kafka protocol's primitive types (kafka.apache.org/protocol#protocol_types), just those the
 * transaction requests of transaction-admin.ts use: fixed-width big-endian integers, classic and
 * compact (unsigned-varint length + 1) strings and arrays, and tagged-field sections (always empty
 * on write, skipped on read). Flexible request versions use the compact forms.
 */

export class WireWriter {
  private readonly parts: Buffer[] = [];

  private push(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  int8(v: number): this {
    const b = Buffer.alloc(1);
    b.writeInt8(v);
    return this.push(b);
  }
  int16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    return this.push(b);
  }
  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    return this.push(b);
  }
  int64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(v);
    return this.push(b);
  }
  bool(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }
  uvarint(v: number): this {
    const bytes: number[] = [];
    let n = v >>> 0;
    while (n >= 0x80) {
      bytes.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    bytes.push(n);
    return this.push(Buffer.from(bytes));
  }
  /** STRING / NULLABLE_STRING: int16 length (-1: null). */
  string(v: string | null): this {
    if (v === null) return this.int16(-1);
    const b = Buffer.from(v, 'utf8');
    return this.int16(b.length).push(b);
  }
  /** COMPACT_(NULLABLE_)STRING: uvarint length + 1 (0: null). */
  compactString(v: string | null): this {
    if (v === null) return this.uvarint(0);
    const b = Buffer.from(v, 'utf8');
    return this.uvarint(b.length + 1).push(b);
  }
  compactArray<T>(items: readonly T[], write: (w: this, item: T) => void): this {
    this.uvarint(items.length + 1);
    for (const item of items) write(this, item);
    return this;
  }
  array<T>(items: readonly T[], write: (w: this, item: T) => void): this {
    this.int32(items.length);
    for (const item of items) write(this, item);
    return this;
  }
  /** An empty tagged-field section. */
  tags(): this {
    return this.uvarint(0);
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export class WireReader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}

  private need(n: number): number {
    if (this.pos + n > this.buf.length)
      throw new Error(`Kafka response ends early (needs ${n} bytes at ${this.pos} of ${this.buf.length})`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  int8(): number {
    return this.buf.readInt8(this.need(1));
  }
  int16(): number {
    return this.buf.readInt16BE(this.need(2));
  }
  int32(): number {
    return this.buf.readInt32BE(this.need(4));
  }
  int64(): bigint {
    return this.buf.readBigInt64BE(this.need(8));
  }
  bool(): boolean {
    return this.int8() !== 0;
  }
  uvarint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.buf.readUInt8(this.need(1));
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('Kafka response has a varint longer than 5 bytes');
  }
  string(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const at = this.need(len);
    return this.buf.toString('utf8', at, at + len);
  }
  compactString(): string | null {
    const len = this.uvarint() - 1;
    if (len < 0) return null;
    const at = this.need(len);
    return this.buf.toString('utf8', at, at + len);
  }
  compactArray<T>(read: (r: this) => T): T[] {
    const n = this.uvarint() - 1;
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }
  array<T>(read: (r: this) => T): T[] {
    const n = this.int32();
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }
  /** Skips a tagged-field section (we ask for no optional fields, so we read none). */
  tags(): void {
    const n = this.uvarint();
    for (let i = 0; i < n; i++) {
      this.uvarint(); // tag
      this.need(this.uvarint());
    }
  }
}
