/**
 * Problems in words: `Filter "Big values": condition must not be empty` rather than only
 * `nodes[1].config.where: must not be empty`, plus where to go to fix it (the node and the
 * inspector field's test id, which is `f-<config path>` for node forms and `s-<name>` for settings).
 * Plain TypeScript: the status bar renders it, tests read it.
 */
import type { JobDocument, JobProblem } from '../../../engine/graph/types.ts';
import { isNodeType, typeInfo } from './catalog.ts';

export interface ProblemText {
  /** `Filter "Big values"`, `Job settings`, `Connection Orders → Big` or `Job`. */
  subject: string;
  /** What the field is called in the inspector (null: the whole node or job). */
  field: string | null;
  message: string;
  severity: 'error' | 'warning';
  nodeId: string | null;
  /** Index in `job.edges` for problems on a connection. */
  edgeIndex: number | null;
  /** Inspector input to focus (data-testid), or null. */
  fieldTestId: string | null;
}

/** Inspector labels of config paths; anything else is shown as its last segment, split into words. */
const FIELD_LABELS: Record<string, string> = {
  where: 'condition',
  select: 'select list',
  keyBy: 'key by',
  aggregates: 'aggregates',
  'window.size': 'window size',
  'window.slide': 'slide',
  'window.gap': 'session gap',
  window: 'window',
  path: 'path',
  format: 'format',
  columns: 'columns',
  follow: 'follow',
  'eventTime.field': 'time column',
  'eventTime.maxOutOfOrderness': 'max out-of-orderness',
  'eventTime.idleTimeout': 'idle timeout',
  eventTime: 'event time',
  count: 'records',
  rate: 'rate',
  keys: 'keys',
  seed: 'seed',
  step: 'event-time step',
  outOfOrderness: 'out-of-orderness jitter',
  limit: 'keep last',
  allowedLateness: 'allowed lateness',
  onBadRecord: 'on a bad record',
};
const SETTINGS_LABELS: Record<string, [label: string, testId: string]> = {
  'checkpointing.interval': ['checkpoint interval', 's-interval'],
  'checkpointing.timeout': ['checkpoint timeout', 's-timeout'],
  'checkpointing.mode': ['checkpoint mode', 's-mode'],
  'checkpointing.minPause': ['min pause between checkpoints', 's-minPause'],
  'checkpointing.retained': ['retained checkpoints', 's-retained'],
  stateBackend: ['state backend', 's-stateBackend'],
  memoryStateLimit: ['memory state limit', 's-memoryStateLimit'],
  parallelism: ['parallelism', 's-parallelism'],
  maxParallelism: ['max parallelism', 's-maxParallelism'],
  'restart.attempts': ['restart attempts', 's-restart.attempts'],
  'restart.delay': ['restart delay', 's-restart.delay'],
};

const words = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function nodeSubject(job: JobDocument, id: string): string {
  const n = job.nodes.find((x) => x.id === id);
  if (!n) return `Node '${id}'`;
  const label = isNodeType(n.type) ? typeInfo(n.type).label : `Node (${String(n.type)})`;
  return `${label} "${n.name || n.id}"`;
}

/** `config.window.size[0]` -> `window.size` (indexes dropped: forms edit whole lists). */
const configPath = (rest: string) => rest.replace(/\[\d+\]/g, '').replace(/^\./, '');

export function describeProblem(job: JobDocument, p: JobProblem): ProblemText {
  const base = { message: p.message, severity: p.severity === 'warning' ? ('warning' as const) : ('error' as const) };
  const node = /^nodes\[(\d+)\](.*)$/.exec(p.path);
  if (node || p.nodeId) {
    const id = p.nodeId ?? job.nodes[Number(node![1])]?.id ?? null;
    const rest = node?.[2] ?? '';
    let field: string | null = null;
    let fieldTestId: string | null = null;
    const cfg = /^\.config(.*)$/.exec(rest);
    if (cfg && configPath(cfg[1])) {
      const path = configPath(cfg[1]);
      field = FIELD_LABELS[path] ?? words(path.split('.').pop() ?? path);
      fieldTestId = `f-${path}`;
    } else if (rest === '.name') {
      field = 'name';
      fieldTestId = 'f-name';
    } else if (rest === '.parallelism') {
      field = 'parallelism';
      fieldTestId = 'f-parallelism';
    }
    return { ...base, subject: id ? nodeSubject(job, id) : 'Node', field, nodeId: id, edgeIndex: null, fieldTestId };
  }
  const edge = /^edges\[(\d+)\]/.exec(p.path);
  if (edge) {
    const e = job.edges[Number(edge[1])];
    const name = (id: string) => job.nodes.find((n) => n.id === id)?.name || id;
    return {
      ...base,
      subject: e ? `Connection ${name(e.from)} → ${name(e.to)}` : 'Connection',
      field: null,
      nodeId: null,
      edgeIndex: Number(edge[1]),
      fieldTestId: null,
    };
  }
  const settings = /^settings\.?(.*)$/.exec(p.path);
  if (settings) {
    const known = SETTINGS_LABELS[settings[1]];
    return {
      ...base,
      subject: 'Job settings',
      field: known?.[0] ?? (settings[1] ? words(settings[1]) : null),
      nodeId: null,
      edgeIndex: null,
      fieldTestId: known?.[1] ?? null,
    };
  }
  if (p.path === 'name')
    return { ...base, subject: 'Job', field: 'name', nodeId: null, edgeIndex: null, fieldTestId: 's-name' };
  return { ...base, subject: 'Job', field: null, nodeId: null, edgeIndex: null, fieldTestId: null };
}

/** A message that reads as what the field must be (`must not be empty`) follows the field's name. */
const PREDICATE = /^(must|is|are|should|needs?|has|have|cannot be|can't be)\b/;

/**
 * One line: `Filter "Big values": condition must not be empty`, and with a colon after the field
 * where the message is a sentence of its own (`File source "Orders": path: cannot read …`), which
 * run on after the field's name read as one garbled phrase.
 */
export function problemLine(t: ProblemText): string {
  if (!t.field) return `${t.subject}: ${t.message}`;
  return `${t.subject}: ${t.field}${PREDICATE.test(t.message) ? ' ' : ': '}${t.message}`;
}

/**
 * A problem as the two lines on a canvas node can hold it: an unknown column's list of every
 * column gives way to the suggestion (`unknown column 'usr': did you mean 'user'?`), which would
 * otherwise be cut off after the list. The inspector and the node's tooltip keep the full message.
 */
export function nodeProblemText(message: string): string {
  return message.replace(/ \((?:columns|known): [^;)]*; (did you mean [^)]*\?)\)/g, ': $1');
}
