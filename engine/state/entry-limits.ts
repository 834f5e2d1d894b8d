/**
 * Seed section 2: RocksDB stores one key and one value of at most 2^31 bytes each (its Slice length
 * is a signed 32-bit int in the JNI layer Flink uses). Weir enforces 2^31-1 bytes for every backend
 * that writes RocksDB or state files, checking lengths before anything is written.
 */
export const MAX_ENTRY_PART_BYTES = 2 ** 31 - 1;

export class StateEntryTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateEntryTooLargeError';
  }
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1) + ' MB';
}

/**
 * Throws a clear error when a serialized key or value is too large. Takes byte counts (not the bytes)
 * so callers can check before allocating and tests can check without allocating 2 GB.
 */
export function checkEntrySize(table: string, key: string, keyBytes: number, valueBytes: number): void {
  const shown = key.length > 60 ? key.slice(0, 60) + '...' : key;
  if (keyBytes > MAX_ENTRY_PART_BYTES) {
    throw new StateEntryTooLargeError(
      `state table '${table}': key '${shown}' is ${keyBytes} bytes (${mb(keyBytes)}); RocksDB keys are limited to ` +
        `${MAX_ENTRY_PART_BYTES} bytes (2^31-1). Use a shorter key.`,
    );
  }
  if (valueBytes > MAX_ENTRY_PART_BYTES) {
    throw new StateEntryTooLargeError(
      `state table '${table}': the value for key '${shown}' is ${valueBytes} bytes (${mb(valueBytes)}); RocksDB values ` +
        `are limited to ${MAX_ENTRY_PART_BYTES} bytes (2^31-1). Split the value over several keys.`,
    );
  }
}
