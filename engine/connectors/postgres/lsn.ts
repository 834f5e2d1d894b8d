/** PostgreSQL WAL positions (`16/B374D848`) as bigints, for comparing and for the wire. */

export type Lsn = bigint;

export function parseLsn(s: string): Lsn {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(s);
  if (!m) throw new Error(`not an LSN: '${s}'`);
  return (BigInt('0x' + m[1]) << 32n) | BigInt('0x' + m[2]);
}

export function formatLsn(l: Lsn): string {
  return `${(l >> 32n).toString(16).toUpperCase()}/${(l & 0xffffffffn).toString(16).toUpperCase()}`;
}
