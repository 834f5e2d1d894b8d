/**
 * What Weir's export says in comments about things Flink SQL cannot carry, read back so that a
 * script Weir exported imports to the same job: per-node parallelism and state TTL (header warnings), the late
 * port's edge (a header warning naming the edge's target), and nodes left out of the script (their
 * origin comment with a `-- weir node config: {...}` line). Hand-written scripts have none of these.
 */
import type { JobNode } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';

export interface ExportHints {
  parallelism: Map<number, number>;
  previewLimit: Map<number, number>;
  /** Per node index: its own idle timeout, or the window's allowed lateness (ms). */
  idleTimeout: Map<number, number>;
  allowedLateness: Map<number, number>;
  /** Per node index: an aggregate's or join's state TTL (ms), which the script cannot carry. */
  stateTtl: Map<number, number>;
  memoryStateLimit: number | null;
  /** With the edge's index in the exported job, so the re-export names the same edge. */
  lateEdges: Array<{ from: string; to: string; index: number }>;
}

const PARALLELISM = /^--\s+nodes\[(\d+)\]\.parallelism: .*?parallelism (\d+) (?:has no|cannot)/;
const LIMIT = /^--\s+nodes\[(\d+)\]: sink\.preview .*without its limit of (\d+) records/;
const IDLE =
  /^--\s+nodes\[(\d+)\]\.config\.eventTime\.idleTimeout: .*idleTimeout (\d+) ms: Flink SQL has one idle timeout/;
const LATENESS = /^--\s+nodes\[(\d+)\]\.config\.allowedLateness: .*allowedLateness (\d+) ms has no equivalent/;
const STATE_TTL = /^--\s+nodes\[(\d+)\]\.config\.stateTtl: .*stateTtl (\d+) ms is event time in Weir/;
const LATE =
  /^--\s+nodes\[\d+\]: window '((?:[^']|'')*)'.*its late port .* edges\[(\d+)\] to '((?:[^']|'')*)' is left out/;
const LEFT_OUT = /^-- nodes\[(\d+)\] ([a-z.]+) '((?:[^']|'')*)'(?: \((.*)\))?: left out of the script/;
const CONFIG = /^-- weir node config: (\{.*\})$/;

export function readHints(b: JobBuilder, sql: string): ExportHints {
  const hints: ExportHints = {
    parallelism: new Map(),
    previewLimit: new Map(),
    idleTimeout: new Map(),
    allowedLateness: new Map(),
    stateTtl: new Map(),
    memoryStateLimit: null,
    lateEdges: [],
  };
  const lines = sql.split('\n');
  lines.forEach((line, i) => {
    const p = PARALLELISM.exec(line);
    if (p) hints.parallelism.set(Number(p[1]), Number(p[2]));
    const mem = /^--\s+settings\.memoryStateLimit: memoryStateLimit (\d+) bytes/.exec(line);
    if (mem) hints.memoryStateLimit = Number(mem[1]);
    const idle = IDLE.exec(line);
    if (idle) hints.idleTimeout.set(Number(idle[1]), Number(idle[2]));
    const lateness = LATENESS.exec(line);
    if (lateness) hints.allowedLateness.set(Number(lateness[1]), Number(lateness[2]));
    const ttl = STATE_TTL.exec(line);
    if (ttl) hints.stateTtl.set(Number(ttl[1]), Number(ttl[2]));
    const lim = LIMIT.exec(line);
    if (lim) hints.previewLimit.set(Number(lim[1]), Number(lim[2]));
    const l = LATE.exec(line);
    if (l) hints.lateEdges.push({ from: l[1], to: l[3], index: Number(l[2]) });
    const o = LEFT_OUT.exec(line);
    const c = o ? CONFIG.exec(lines[i + 1] ?? '') : null;
    if (o && c) {
      try {
        const node = { id: o[3], type: o[2], config: JSON.parse(c[1]) } as JobNode;
        b.add(
          node,
          { line: i + 1, column: 1 },
          { index: Number(o[1]), type: o[2], id: o[3], ...(o[4] !== undefined ? { name: o[4] } : {}) },
        );
      } catch {
        b.problem(
          { line: i + 2, column: 1 },
          'the config of a node Weir left out of the script is not valid JSON; the node is not imported',
        );
      }
    }
  });
  return hints;
}
