/**
 * Key layout of the window operator's keyed state, all in ONE table so that a batch costs one
 * `getMany` and one `writeMany`. Every key starts with the 4-hex-digit key group prefix of
 * `stateKey` (so snapshots split by key-group range on rescale), then a kind letter, fixed-width
 * times, and the record key last (it may contain any character):
 *
 *   gggg:W<end>:<key>          one tumbling/sliding window of one key -> AlignedWindowState; its
 *                              single pending timer is the entry's own `t` field (no extra entry:
 *                              the hot path writes one entry per window)
 *   gggg:S<key>                all sessions of one key                -> SessionKeyState
 *   gggg:T<time>:<end>:<key>   a pending timer of one session         -> 1
 *
 * Times are encoded as 14 hex digits of `t + 2^52`, so string order is numeric order for every
 * integer in [-2^52, 2^52). Inside one key group, windows are therefore ordered by end and session
 * timers by firing time: "everything due at watermark W in group g" is one bounded ordered scan.
 */
import { stateKey } from '../../../../state/keygroups.ts';

const TIME_BIAS = 2 ** 52;
export const TIME_WIDTH = 14;
/** Length of the `gggg:` prefix written by `stateKey`. */
export const GROUP_PREFIX_WIDTH = 5;
const MAX_TIME = TIME_BIAS - 1;
const MIN_TIME = -TIME_BIAS;

export function clampTime(t: number): number {
  return t > MAX_TIME ? MAX_TIME : t < MIN_TIME ? MIN_TIME : t;
}

// Window ends and timer times repeat across keys and batches: a small cache saves the (slow,
// non-Smi) number formatting on the hot path.
const encoded = new Map<number, string>();
const LOW = 2 ** 28;

export function encodeTime(t: number): string {
  let s = encoded.get(t);
  if (s === undefined) {
    // Two Smi halves (7 hex digits each): much faster than formatting a 53-bit double.
    const v = clampTime(t) + TIME_BIAS;
    const hi = Math.floor(v / LOW);
    const lo = v - hi * LOW;
    s = hi.toString(16).padStart(7, '0') + lo.toString(16).padStart(7, '0');
    if (encoded.size >= 8192) encoded.clear();
    encoded.set(t, s);
  }
  return s;
}

export function decodeTime(text: string, at: number): number {
  return parseInt(text.slice(at, at + TIME_WIDTH), 16) - TIME_BIAS;
}

const prefixes: string[] = [];

/** `gggg:`, cached: built once per key group instead of once per window. */
export function groupPrefix(keyGroup: number): string {
  return (prefixes[keyGroup] ??= stateKey(keyGroup, ''));
}

export function alignedWindowKey(keyGroup: number, end: number, key: string): string {
  return groupPrefix(keyGroup) + 'W' + encodeTime(end) + ':' + key;
}

export function sessionKey(keyGroup: number, key: string): string {
  return groupPrefix(keyGroup) + 'S' + key;
}

export function timerKey(keyGroup: number, time: number, end: number, key: string): string {
  return groupPrefix(keyGroup) + 'T' + encodeTime(time) + ':' + encodeTime(end) + ':' + key;
}

/** Scan range of one kind of entry (`W`, `S`, `T`) of one key group. */
export function kindRange(keyGroup: number, kind: 'W' | 'S' | 'T'): { gte: string; lt: string } {
  const prefix = groupPrefix(keyGroup);
  return { gte: prefix + kind, lt: prefix + String.fromCharCode(kind.charCodeAt(0) + 1) };
}

export function keyGroupOfKey(text: string): number {
  return parseInt(text.slice(0, GROUP_PREFIX_WIDTH - 1), 16);
}

/** Reads the end and key of a `gggg:W<end>:<key>` entry. */
export function parseAlignedWindowKey(text: string): { keyGroup: number; end: number; key: string } {
  const at = GROUP_PREFIX_WIDTH + 1;
  return { keyGroup: keyGroupOfKey(text), end: decodeTime(text, at), key: text.slice(at + TIME_WIDTH + 1) };
}

/** Reads a `gggg:T<time>:<end>:<key>` entry. */
export function parseTimerKey(text: string): { keyGroup: number; time: number; end: number; key: string } {
  const at = GROUP_PREFIX_WIDTH + 1;
  return {
    keyGroup: keyGroupOfKey(text),
    time: decodeTime(text, at),
    end: decodeTime(text, at + TIME_WIDTH + 1),
    key: text.slice(at + 2 * (TIME_WIDTH + 1)),
  };
}
