/**
 * The Nexmark events of (params) as three JSON Lines files, `person.jsonl`, `auction.jsonl` and
 * `bid.jsonl`, in event-number order: exactly the rows a `source.nexmark` with the same events,
 * seed, rate and baseTime emits on its ports, so other tools can check a query's results.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { NEXMARK_PORTS, type NexmarkPort } from '../../graph/nexmark.ts';
import { nexmarkEvents } from './nexmark-source.ts';
import type { NexmarkParams } from './nexmark-generator.ts';

const FLUSH_CHARS = 1 << 20;

export interface NexmarkFilesResult {
  files: Record<NexmarkPort, string>;
  counts: Record<NexmarkPort, number>;
}

export function writeNexmarkFiles(p: NexmarkParams, dir: string): NexmarkFilesResult {
  if (p.events === null) throw new Error('writeNexmarkFiles: the number of events must be bounded');
  mkdirSync(dir, { recursive: true });
  const files = {} as Record<NexmarkPort, string>;
  const fds = {} as Record<NexmarkPort, number>;
  const pending = {} as Record<NexmarkPort, string[]>;
  const sizes = {} as Record<NexmarkPort, number>;
  const counts = {} as Record<NexmarkPort, number>;
  for (const port of NEXMARK_PORTS) {
    files[port] = join(dir, `${port}.jsonl`);
    fds[port] = openSync(files[port], 'w');
    pending[port] = [];
    sizes[port] = 0;
    counts[port] = 0;
  }
  const flush = (port: NexmarkPort) => {
    if (pending[port].length === 0) return;
    writeSync(fds[port], pending[port].join(''));
    pending[port] = [];
    sizes[port] = 0;
  };
  try {
    for (const { port, row } of nexmarkEvents(p)) {
      const k = port as NexmarkPort;
      const line = JSON.stringify(row) + '\n';
      pending[k].push(line);
      counts[k]++;
      sizes[k] += line.length;
      if (sizes[k] >= FLUSH_CHARS) flush(k);
    }
    for (const port of NEXMARK_PORTS) flush(port);
  } finally {
    for (const port of NEXMARK_PORTS) closeSync(fds[port]);
  }
  return { files, counts };
}
