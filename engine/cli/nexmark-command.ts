/** `weir nexmark generate`: the events a source.nexmark emits, as JSON Lines files per port. */

import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { writeNexmarkFiles } from '../connectors/nexmark/nexmark-files.ts';
import { nexmarkParams } from '../connectors/nexmark/nexmark-generator.ts';
import { EXIT_INVALID, EXIT_OK, type CliIO } from './output.ts';
import { NEXMARK_DEFAULTS } from '../nodes/source-nexmark/definition.ts';
import { NEXMARK_DEFAULT_EVENT_RATE } from '../nodes/source-nexmark/nexmark.ts';

export const NEXMARK_USAGE = `Usage: weir nexmark generate --events N --seed S --out DIR [--rate R] [--base-time MS]

Writes DIR/person.jsonl, DIR/auction.jsonl and DIR/bid.jsonl: exactly the events a source.nexmark
node with the same events, seed, rate and baseTime emits on its person, auction and bid ports, so
a query's results can be checked with another tool.

  --events N      number of events (persons, auctions and bids together), a positive integer
  --seed S        seed, a non-negative integer (default ${NEXMARK_DEFAULTS.seed})
  --out DIR       folder for the three files (created if missing)
  --rate R        events per second, as the node's rate: spaces event time (default ${NEXMARK_DEFAULT_EVENT_RATE})
  --base-time MS  event time of event 0 in epoch ms, as the node's baseTime (default ${NEXMARK_DEFAULTS.baseTime})`;

function integerFlag(name: string, text: string | undefined, min: number): number | string {
  if (text === undefined) return `missing --${name}`;
  const v = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(v) || v < min)
    return `--${name}: expected ${min === 1 ? 'a positive' : 'a non-negative'} integer, got '${text}'`;
  return v;
}

export async function nexmarkCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      events: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      rate: { type: 'string' },
      'base-time': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(NEXMARK_USAGE);
    return EXIT_OK;
  }
  const fail = (message: string) => {
    io.err(`weir nexmark: ${message}`);
    io.err(NEXMARK_USAGE);
    return EXIT_INVALID;
  };
  if (positionals[0] !== 'generate' || positionals.length > 1)
    return fail(
      positionals.length === 0 ? 'missing subcommand generate' : `unknown arguments '${positionals.join(' ')}'`,
    );
  const events = integerFlag('events', values.events, 1);
  if (typeof events === 'string') return fail(events);
  const seed = integerFlag('seed', values.seed ?? String(NEXMARK_DEFAULTS.seed), 0);
  if (typeof seed === 'string') return fail(seed);
  if (values.out === undefined || values.out.trim() === '') return fail('missing --out DIR');
  let rate: number | undefined;
  if (values.rate !== undefined) {
    rate = Number(values.rate);
    if (values.rate.trim() === '' || !Number.isFinite(rate) || rate <= 0)
      return fail(`--rate: expected a positive number, got '${values.rate}'`);
  }
  let baseTime: number | undefined;
  if (values['base-time'] !== undefined) {
    const b = integerFlag('base-time', values['base-time'], 0);
    if (typeof b === 'string') return fail(b);
    baseTime = b;
  }
  const dir = resolve(values.out);
  const started = Date.now();
  const r = writeNexmarkFiles(nexmarkParams({ events, seed, rate, baseTime }), dir);
  const secs = (Date.now() - started) / 1000;
  io.out(
    `weir nexmark: ${events} events (seed ${seed}) in ${secs.toFixed(1)} s: ` +
      `${r.counts.person} persons, ${r.counts.auction} auctions, ${r.counts.bid} bids in ${dir}`,
  );
  return EXIT_OK;
}
