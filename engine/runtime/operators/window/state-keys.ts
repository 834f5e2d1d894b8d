/**
 * Key layout of the window operator's keyed state, all in ONE table so that a batch costs one
 * `getMany` and one `writeMany`. Every key starts with the 4-hex-digit key group prefix of
 * `stateKey` (so snapshots split by key-group range on rescale), then a kind letter, fixed-width
 * times, and the record key last (it may contain any character):
 *
 *   gggg:W<end>:<key>             one tumbling/sliding window of one key -> AlignedWindowState
 *   gggg:S<key>                   all sessions of one key                -> SessionKeyState
 *   gggg:T<time>:<end>:<key>      a pending event-time timer             -> 1
 *
 * Times are encoded as 14 hex digits of `t + 2^52`, so string order is numeric order for every
 * integer in [-2^52, 2^52). Inside one key group the timers table is therefore ordered by firing
 * time, and "every timer due at watermark W in group g" is one bounded scan.
 */
import { stateKey } from '../../../state/keygroups.ts';

const TIME_BIAS = 2 ** 52;
export const TIME_WIDTH = 14;
/** Length of the `gggg:` prefix written by `stateKey`. */
export const GROUP_PREFIX_WIDTH = 5;
const MAX_TIME = TIME_BIAS - 1;
const MIN_TIME = -TIME_BIAS;

export function clampTime(t: number): number {
  return t > MAX_TIME ? MAX_TIME : t < MIN_TIME ? MIN_TIME : t;
}

export function encodeTime(t: number): string {
  return (clampTime(t) + TIME_BIAS).toString(16).padStart(TIME_WIDTH, '0');
}

export function decodeTime(text: string, at: number): number {
  return parseInt(text.slice(at, at + TIME_WIDTH), 16) - TIME_BIAS;
}

export function groupPrefix(keyGroup: number): string {
  return stateKey(keyGroup, '');
}

export function alignedWindowKey(keyGroup: number, end: number, key: string): string {
  return stateKey(keyGroup, 'W' + encodeTime(end) + ':' + key);
}

export function sessionKey(keyGroup: number, key: string): string {
  return stateKey(keyGroup, 'S' + key);
}

export function timerKey(keyGroup: number, time: number, end: number, key: string): string {
  return stateKey(keyGroup, 'T' + encodeTime(time) + ':' + encodeTime(end) + ':' + key);
}

/** Scan range of all timers of one key group ('U' follows 'T'). */
export function timerRange(keyGroup: number): { gte: string; lt: string } {
  const prefix = groupPrefix(keyGroup);
  return { gte: prefix + 'T', lt: prefix + 'U' };
}

export interface ParsedTimer { keyGroup: number; time: number; end: number; key: string }

const TIME_AT = GROUP_PREFIX_WIDTH + 1;
const END_AT = TIME_AT + TIME_WIDTH + 1;
const KEY_AT = END_AT + TIME_WIDTH + 1;

export function parseTimerKey(text: string): ParsedTimer {
  return {
    keyGroup: parseInt(text.slice(0, GROUP_PREFIX_WIDTH - 1), 16),
    time: decodeTime(text, TIME_AT),
    end: decodeTime(text, END_AT),
    key: text.slice(KEY_AT),
  };
}
