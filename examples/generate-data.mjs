#!/usr/bin/env node
// Writes the examples' data files. Deterministic (fixed seeds, fixed start time), so the committed
// files only change when this script does: `node examples/generate-data.mjs [--out DIR]`
// (--out writes the same tree elsewhere; the examples test uses it to prove the data is current).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const outArg = process.argv.indexOf('--out');
const here = outArg >= 0 ? process.argv[outArg + 1] : dirname(fileURLToPath(import.meta.url));
const T0 = Date.UTC(2024, 0, 15, 9, 0, 0); // 2024-01-15T09:00:00.000Z

function rng(seed) { // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (r, xs) => xs[Math.floor(r() * xs.length)];

function write(rel, lines) {
  const p = join(here, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, lines.join('\n') + '\n');
}

// orders-per-user: 300 orders over ~5 minutes, up to 4s out of order (bounded by the job's 5s).
{
  const r = rng(1);
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
  const lines = [];
  for (let i = 0; i < 300; i++) {
    const ts = T0 + i * 1000 - Math.floor(r() * 4000);
    const amount = Math.round((1 + r() * 99) * 100) / 100;
    lines.push(JSON.stringify({ order_id: 1000 + i, user: pick(r, users), amount, ts }));
  }
  write('orders-per-user/data/orders.jsonl', lines);
}

// clicks-sessions: 400 clicks as CSV with ISO timestamps; users click in bursts with pauses, so
// 30s session windows close between bursts.
{
  const r = rng(2);
  const users = ['u1', 'u2', 'u3', 'u4', 'u5'];
  const pages = ['/', '/search', '/product/1', '/product/2', '/cart', '/checkout'];
  const next = new Map(users.map((u) => [u, T0 + Math.floor(r() * 10_000)]));
  const rows = [];
  for (let i = 0; i < 400; i++) {
    const user = pick(r, users);
    const gap = r() < 0.12 ? 45_000 + Math.floor(r() * 60_000) : 500 + Math.floor(r() * 8000);
    const ts = next.get(user) + gap;
    next.set(user, ts);
    rows.push({ user, page: pick(r, pages), ts });
  }
  rows.sort((a, b) => a.ts - b.ts);
  write('clicks-sessions/data/clicks.csv',
    ['user,page,ts', ...rows.map((x) => `${x.user},${x.page},${new Date(x.ts).toISOString()}`)]);
}

// union-late: two stores selling the same products; store B's feed also carries a few very late
// records (minutes behind), which the window sends to its `late` output.
{
  const r = rng(3);
  const products = ['apple', 'banana', 'cherry', 'durian'];
  const a = [];
  for (let i = 0; i < 250; i++) {
    a.push(JSON.stringify({ product: pick(r, products), qty: 1 + Math.floor(r() * 5), ts: T0 + i * 800 }));
  }
  write('union-late/data/store_a.jsonl', a);
  const b = ['product,qty,ts'];
  for (let i = 0; i < 250; i++) {
    const late = i > 50 && i % 40 === 0;
    const ts = late ? T0 + i * 800 - 120_000 : T0 + i * 800 + 400;
    b.push(`${pick(r, products)},${1 + Math.floor(r() * 5)},${ts}`);
  }
  write('union-late/data/store_b.csv', b);
}

// orders-payments-join: 200 orders; most are paid 0-8 s later (payments arrive out of order by up
// to 2 s), some never; the interval join pairs each order with its payment.
{
  const r = rng(4);
  const users = ['alice', 'bob', 'carol', 'dave', 'erin'];
  const methods = ['card', 'paypal', 'invoice'];
  const orders = [];
  const payments = [];
  for (let i = 0; i < 200; i++) {
    const ts = T0 + i * 1500;
    orders.push({ order_id: 5000 + i, user: pick(r, users), amount: Math.round((5 + r() * 195) * 100) / 100, ts });
    if (r() < 0.85) payments.push({ order_id: 5000 + i, method: pick(r, methods), ts: ts + Math.floor(r() * 8000) });
  }
  payments.sort((a, b) => a.ts - b.ts);
  // Out of order, but within the payments source's 3 s bound: no payment is late.
  for (let i = 0; i + 1 < payments.length; i += 7) {
    if (payments[i + 1].ts - payments[i].ts < 2000) [payments[i], payments[i + 1]] = [payments[i + 1], payments[i]];
  }
  write('orders-payments-join/data/orders.jsonl', orders.map((o) => JSON.stringify(o)));
  write('orders-payments-join/data/payments.jsonl', payments.map((p) => JSON.stringify(p)));
}

// sales-per-category: 400 sales of products in 4 categories, up to 3 s out of order.
{
  const r = rng(5);
  const catalog = { fruit: ['apple', 'banana', 'cherry'], dairy: ['milk', 'cheese'], bakery: ['bread', 'croissant', 'bagel'], drinks: ['water', 'juice'] };
  const cats = Object.keys(catalog);
  const lines = [];
  for (let i = 0; i < 400; i++) {
    const category = pick(r, cats);
    lines.push(JSON.stringify({ sale_id: i, category, product: pick(r, catalog[category]), price: Math.round((1 + r() * 99) * 100) / 100, ts: T0 + i * 500 - Math.floor(r() * 3000) }));
  }
  write('sales-per-category/data/sales.jsonl', lines);
}

// top-bids: 500 bids on 6 auctions by 8 bidders, prices drifting up, up to 2 s out of order.
{
  const r = rng(6);
  const lines = [];
  const price = new Map();
  for (let i = 0; i < 500; i++) {
    const auction = 100 + Math.floor(r() * 6);
    const p = (price.get(auction) ?? 10) + Math.floor(r() * 30) - 8;
    price.set(auction, Math.max(1, p));
    lines.push(JSON.stringify({ bid_id: i, auction, bidder: `b${1 + Math.floor(r() * 8)}`, price: Math.max(1, p), ts: T0 + i * 400 - Math.floor(r() * 2000) }));
  }
  write('top-bids/data/bids.jsonl', lines);
}

// impressions-clicks-window: ad impressions and the clicks on them, up to 1 s out of order; the
// window join pairs them per ad within 10-second tumbling windows.
{
  const r = rng(7);
  const ads = ['ad-1', 'ad-2', 'ad-3', 'ad-4'];
  const imps = [];
  const clicks = [];
  for (let i = 0; i < 300; i++) {
    const ts = T0 + i * 200 - Math.floor(r() * 1000);
    const ad = pick(r, ads);
    imps.push(JSON.stringify({ imp_id: i, ad, ts }));
    if (r() < 0.2) clicks.push({ click_id: clicks.length, ad, ts: ts + 200 + Math.floor(r() * 3000) });
  }
  clicks.sort((a, b) => a.ts - b.ts);
  write('impressions-clicks-window/data/impressions.jsonl', imps);
  write('impressions-clicks-window/data/clicks.jsonl', clicks.map((c) => JSON.stringify(c)));
}

// customers-orders-left-join: 12 customers (some never order) and 80 orders of the others.
{
  const r = rng(8);
  const names = ['Ada', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea'];
  const customers = names.map((name, i) => JSON.stringify({ customer_id: i + 1, name, country: pick(r, ['DE', 'FR', 'NL', 'PL']), ts: T0 + i * 1000 }));
  const orders = [];
  for (let i = 0; i < 80; i++) {
    orders.push(JSON.stringify({ order_id: 9000 + i, customer_id: 1 + Math.floor(r() * 9), amount: Math.round((3 + r() * 97) * 100) / 100, ts: T0 + 5000 + i * 700 }));
  }
  write('customers-orders-left-join/data/customers.jsonl', customers);
  write('customers-orders-left-join/data/orders.jsonl', orders);
}
