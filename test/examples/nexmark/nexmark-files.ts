/**
 * TEMPORARY until source.nexmark and `weir nexmark generate` land from the nexmark-gen branch: a
 * small deterministic stand-in for the generated files, and the document with its source.nexmark
 * replaced by three file sources reading them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function generateNexmarkFiles(o: { events: number; seed: number; out: string }): Promise<void> {
  let s = o.seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
  const word = (): string => Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => pick([...'abcdefghij'])).join('');
  mkdirSync(o.out, { recursive: true });
  const P: object[] = [],
    A: object[] = [],
    B: object[] = [];
  const base = Date.UTC(2026, 0, 1, 23, 50);
  for (let i = 0; i < o.events; i++) {
    const t = base + i * 250;
    const r = i % 50;
    if (r === 0)
      P.push({ id: 1000 + P.length, name: `${word()} ${word()}`, emailAddress: `${word()}@x.com`, creditCard: '1234', city: pick(['Boise', 'Kent']), state: pick(['ID', 'WA']), dateTime: t, extra: '' });
    else if (r <= 3)
      A.push({ id: 1000 + A.length, itemName: word(), description: word(), initialBid: 100, reserve: 200, dateTime: t, expires: t + Math.floor(rnd() * 20000), seller: 1000 + Math.max(0, P.length - 1 - Math.floor(rnd() * 3)), category: 10 + Math.floor(rnd() * 3), extra: '' });
    else {
      const ch = pick(['Google', 'Facebook', 'Baidu', 'Apple', 'channel-12', 'channel-7']);
      const url = ch.startsWith('channel')
        ? `https://www.nexmark.com/${word()}/${word()}/item.htm?query=1&channel_id=${ch.slice(8)}`
        : pick([`https://www.nexmark.com/${word()}/${word()}/item.htm?query=1`, `https://www.nexmark.com/${word()}/item.htm`]);
      B.push({ auction: 1000 + Math.max(0, A.length - 1 - Math.floor(rnd() * 5)), bidder: 1000 + Math.floor(rnd() * Math.max(1, P.length)), price: Math.floor(rnd() ** 4 * 3_000_000), channel: ch, url, dateTime: t, extra: '' });
    }
  }
  const w = (f: string, rows: object[]): void => writeFileSync(join(o.out, f), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  w('person.jsonl', P);
  w('auction.jsonl', A);
  w('bid.jsonl', B);
}

type Doc = { nodes: Array<{ id: string; type: string; config: any }>; edges: Array<Record<string, string>> };

export function withGeneratedEvents(doc: Doc, dataDir: string): Doc {
  const src = doc.nodes.find((n) => n.type === 'source.nexmark')!;
  const used = new Set(doc.edges.filter((e) => e.from === src.id).map((e) => e.fromPort));
  const nodes = doc.nodes.filter((n) => n !== src);
  for (const p of used)
    nodes.push({ id: `nx_${p}`, type: 'source.file', config: { path: join(dataDir, `${p}.jsonl`), format: 'jsonl', eventTime: { field: 'dateTime', maxOutOfOrderness: '4s' } } });
  const edges = doc.edges.map((e) => {
    if (e.from !== src.id) return e;
    const { fromPort, ...rest } = e;
    return { ...rest, from: `nx_${fromPort}` };
  });
  return { ...doc, nodes, edges };
}
