/** Inspector edits as undo steps; typing in one field coalesces into one step. */
import type { JobDocument, JobNode, JobProblem } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { setIn, updateNode, setSettings, setName } from '../model/ops.ts';

export function editConfig(nodeId: string, path: readonly string[], value: unknown): void {
  docStore.getState().commit(
    `edit ${path.join('.')}`,
    (job) => {
      const node = job.nodes.find((n) => n.id === nodeId);
      if (!node) return job;
      return updateNode(job, nodeId, { config: setIn(node.config as object, path, value) });
    },
    { coalesceKey: `${nodeId}.config.${path.join('.')}` },
  );
}

/** Replace a whole config (e.g. switching window kind resets its fields). */
export function replaceConfig(nodeId: string, config: JobNode['config']): void {
  docStore.getState().commit('edit config', (job) => updateNode(job, nodeId, { config }));
}

export function editNodeField(nodeId: string, field: 'name' | 'parallelism', value: string | number | undefined): void {
  docStore.getState().commit(`edit ${field}`, (job) => updateNode(job, nodeId, { [field]: value }), {
    coalesceKey: `${nodeId}.${field}`,
  });
}

export function editSettings(path: readonly string[], value: unknown): void {
  docStore
    .getState()
    .commit(`edit settings.${path.join('.')}`, (job) => setSettings(job, setIn(job.settings ?? {}, path, value)), {
      coalesceKey: `settings.${path.join('.')}`,
    });
}

export function editJobName(name: string): void {
  docStore.getState().commit('rename job', (job) => setName(job, name), { coalesceKey: 'job.name' });
}

/** The first message of the problems whose path is `prefix` or below it. */
export function messageAt(problems: readonly JobProblem[] | undefined, prefix: string): string | null {
  const p = problems?.find(
    (x) => x.path === prefix || x.path.startsWith(`${prefix}.`) || x.path.startsWith(`${prefix}[`),
  );
  return p ? p.message : null;
}

export function nodeIndex(job: JobDocument, id: string): number {
  return job.nodes.findIndex((n) => n.id === id);
}
