/**
 * The file-source bench's input: out-of-order order events as JSON Lines, written once per run.
 * `{"id":..,"user":"u123","amount":12.30,"category":"books","ts":1700000000123}`; amounts carry two
 * decimals (the job declares DECIMAL(10, 2)), timestamps jitter up to `jitterMs` behind a 10 ms
 * step, and one user in 500 has a name with a multi-byte character, one in 997 an escaped quote,
 * so the fast reader's fallbacks are exercised by the bench and not only by the tests.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export const CATEGORIES = ['books', 'music', 'garden', 'toys', 'food', 'tools', 'sport', 'games'];
export const ORDERS_START = 1_700_000_000_000;
export const ORDERS_STEP = 10;
export const ORDERS_JITTER = 2_000;

/** Deterministic xorshift, so every round and every peer reads the same file. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

function userName(u: number): string {
  if (u % 500 === 7) return `zoë-${u}`;
  if (u % 997 === 3) return `o\\"neil-${u}`;
  return `u${u}`;
}

/** Writes `count` orders to `file`; returns its size in bytes. */
export function writeOrders(file: string, count: number, seed = 11): number {
  const next = rng(seed);
  const fd = openSync(file, 'w');
  let bytes = 0;
  let text = '';
  for (let i = 0; i < count; i++) {
    const ts = ORDERS_START + i * ORDERS_STEP - Math.floor(next() * ORDERS_JITTER);
    const cents = 1 + Math.floor(next() * 50_000);
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const category = CATEGORIES[Math.floor(next() * CATEGORIES.length)];
    text += `{"id":${i},"user":"${userName(Math.floor(next() * 100_000))}","amount":${amount},"category":"${category}","ts":${ts}}\n`;
    if (text.length > 1 << 20) {
      bytes += writeSync(fd, text);
      text = '';
    }
  }
  if (text) bytes += writeSync(fd, text);
  closeSync(fd);
  return bytes;
}
