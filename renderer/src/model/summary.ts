/**
 * One-line config summaries shown on canvas nodes, e.g. `tumbling 10s · COUNT(*), SUM(amount) by user`.
 * Pure and total: any config, even half-filled or wrong, gives a string and never throws.
 */
import type { JobNode, WindowSpec } from '../../../engine/graph/types.ts';
import { splitTopLevel } from '../../../engine/graph/expressions.ts';

const MAX = 48;

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

function str(x: unknown): string {
  return typeof x === 'string' || typeof x === 'number' ? String(x) : '';
}

function windowText(w: WindowSpec | undefined): string {
  if (!w || typeof w !== 'object') return 'window?';
  switch (w.kind) {
    case 'tumbling':
      return `tumbling ${str(w.size) || '?'}`;
    case 'sliding':
      return `sliding ${str(w.size) || '?'}/${str(w.slide) || '?'}`;
    case 'session':
      return `session gap ${str(w.gap) || '?'}`;
    default:
      return 'window?';
  }
}

/** `COUNT(*) AS n, SUM(amount) AS total` -> `COUNT(*), SUM(amount)`: aliases are noise on a node. */
export function aggregatesShort(aggregates: string): string {
  return splitTopLevel(aggregates)
    .map((part) => part.replace(/\s+as\s+[`"]?[\w]+[`"]?\s*$/i, '').trim())
    .filter(Boolean)
    .join(', ');
}

export function summarize(node: JobNode): string {
  const c = (node.config ?? {}) as unknown as Record<string, unknown>;
  switch (node.type) {
    case 'source.file': {
      const et = node.config?.eventTime?.field ? ` · time ${node.config.eventTime.field}` : '';
      return clip(
        `${str(c.format) || '?'} ${str(c.path) || '(no path)'}${node.config?.follow ? ' · follow' : ''}${et}`,
      );
    }
    case 'source.generator': {
      const cfg = node.config ?? {};
      const count = cfg.count === undefined ? 'unbounded' : `${cfg.count} records`;
      const rate = cfg.rate === undefined ? '' : ` · ${cfg.rate}/s`;
      const keys = cfg.keys === undefined ? '' : ` · ${cfg.keys} keys`;
      return clip(`${count}${rate}${keys}`);
    }
    case 'source.nexmark': {
      const cfg = node.config ?? {};
      const events = cfg.events === undefined ? 'unbounded' : `${cfg.events} events`;
      const rate = cfg.rate === undefined ? '' : ` · ${cfg.rate}/s`;
      return clip(`${events} · seed ${cfg.seed ?? 0}${rate}`);
    }
    case 'source.postgres':
      return clip(`${str(c.mode) || '?'} ${str(c.table) || '(no table)'}`);
    case 'filter':
      return clip(str(c.where) ? `where ${str(c.where)}` : 'where (empty)');
    case 'map':
      return clip(str(c.select) ? `select ${str(c.select)}` : 'select (empty)');
    case 'union':
      return 'merge inputs';
    case 'window': {
      const cfg = node.config;
      const aggs = aggregatesShort(str(cfg?.aggregates));
      const by = cfg?.keyBy ? ` by ${cfg.keyBy}` : '';
      return clip(`${windowText(cfg?.window)} · ${aggs || 'no aggregates'}${by}`);
    }
    case 'sink.file':
      return clip(`${str(c.format) || '?'} ${str(c.path) || '(no path)'}`);
    case 'sink.postgres':
      return clip(`${str(c.mode) || '?'} ${str(c.table) || '(no table)'}`);
    case 'sink.preview':
      return `last ${node.config?.limit ?? 100} records`;
    default:
      return '';
  }
}
