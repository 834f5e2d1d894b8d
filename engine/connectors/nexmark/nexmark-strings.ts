/**
 * Strings of the Nexmark generator, ported from StringsGenerator.java and BidGenerator.java:
 * random words (3 to max-1 characters, one in 13 a space or `special`), the `extra` padding cut
 * from one reusable 1 MiB string, and the bid channels with their URLs. The per-seed tables (the
 * reusable string, 4 hot URLs, 10 000 channel URLs) are drawn from their own random stream, as
 * Java's static initializers draw from their own SplittableRandom, and cached per seed.
 */
import { NexmarkRandom, mixSeed } from './nexmark-random.ts';

const MIN_STRING_LENGTH = 3;
const REUSABLE_LENGTH = 1024 * 1024;
export const CHANNELS_NUMBER = 10_000;
export const HOT_CHANNELS = ['Google', 'Facebook', 'Baidu', 'Apple'] as const;

/** One-character strings for codes 0..127: appending them beats String.fromCharCode per char. */
const CHAR: string[] = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

/**
 * StringsGenerator.nextString: one in 13 characters `special`, the others a..z. One 32-bit draw per
 * character (Java draws twice): `u % 13` picks special, `(u / 13) % 26` the letter.
 */
export function nextString(r: NexmarkRandom, maxLength: number, special = ' '): string {
  let len = MIN_STRING_LENGTH + r.nextInt(maxLength - MIN_STRING_LENGTH);
  let s = '';
  while (len-- > 0) {
    const u = r.nextU32();
    s += u % 13 === 0 ? special : CHAR[97 + (Math.floor(u / 13) % 26)];
  }
  return special === ' ' ? s.trim() : s;
}

export interface NexmarkTables {
  reusable: string;
  hotUrls: string[];
  channels: string[];
  channelUrls: string[];
}

const tables = new Map<number, NexmarkTables>();

function baseUrl(r: NexmarkRandom): string {
  return (
    'https://www.nexmark.com/' +
    nextString(r, 5, '_') +
    '/' +
    nextString(r, 5, '_') +
    '/' +
    nextString(r, 5, '_') +
    '/' +
    'item.htm?query=1'
  );
}

/** Java's Integer.reverse: the 32 bits in reverse order, as a signed int. */
function reverseBits(i: number): number {
  let v = i >>> 0;
  v = ((v >>> 1) & 0x55555555) | ((v & 0x55555555) << 1);
  v = ((v >>> 2) & 0x33333333) | ((v & 0x33333333) << 2);
  v = ((v >>> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
  v = ((v >>> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8);
  return (v >>> 16) | (v << 16) | 0;
}

/**
 * StringsGenerator.nextExactString before the reusable string exists: six characters per signed
 * 32-bit draw, `'a' + rnd % 26` with Java's signed remainder, so characters range over 'H'..'z'.
 */
function exactString(r: NexmarkRandom, length: number): string {
  const parts: string[] = [];
  const chunk = new Array<number>(8192);
  let k = 0;
  let rnd = 0;
  let n = 0;
  while (length-- > 0) {
    if (n === 0) {
      rnd = r.nextIntSigned();
      n = 6;
    }
    chunk[k++] = 97 + (rnd % 26);
    rnd = (rnd / 26) | 0;
    n--;
    if (k === chunk.length) {
      parts.push(String.fromCharCode(...chunk));
      k = 0;
    }
  }
  parts.push(String.fromCharCode(...chunk.slice(0, k)));
  return parts.join('');
}

export function nexmarkTables(seed: number): NexmarkTables {
  const known = tables.get(seed);
  if (known) return known;
  const r = new NexmarkRandom(mixSeed(seed, 0x7fffffff));
  const reusable = exactString(r, REUSABLE_LENGTH);
  const hotUrls = HOT_CHANNELS.map(() => baseUrl(r));
  const channels: string[] = [];
  const channelUrls: string[] = [];
  for (let i = 0; i < CHANNELS_NUMBER; i++) {
    let url = baseUrl(r);
    if (r.nextInt(10) > 0) url += '&channel_id=' + Math.abs(reverseBits(i));
    channels.push('channel-' + i);
    channelUrls.push(url);
  }
  const t = { reusable, hotUrls, channels, channelUrls };
  tables.set(seed, t);
  return t;
}

/** StringsGenerator.nextExtra: padding so the event's size averages `desiredAverageSize` bytes. */
export function nextExtra(r: NexmarkRandom, t: NexmarkTables, currentSize: number, desiredAverageSize: number): string {
  if (currentSize > desiredAverageSize) return '';
  desiredAverageSize -= currentSize;
  const delta = Math.round(desiredAverageSize * 0.2);
  const minSize = desiredAverageSize - delta;
  const size = minSize + (delta === 0 ? 0 : r.nextInt(2 * delta));
  const offset = r.nextInt(t.reusable.length - size);
  return t.reusable.substring(offset, offset + size);
}
