/**
 * The task process's runtime (Flink's TaskManager): builds every subtask of the job from the plan,
 * wires the in-process channels, restores state, runs all subtask loops on this one event loop and
 * talks to the host through `send`. Independent of the transport (fork IPC, Electron utilityProcess).
 */
import { resolve as resolvePath } from 'node:path';
import type { JobNode, NormalizedJob } from '../../graph/types.ts';
import type { CheckpointBarrier, SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import type { CheckpointWorkerStorage } from '../../contracts/checkpoint-storage.ts';
import { createWorkerStorage } from '../../checkpoint/storage-factory.ts';
import type { KeyedStateBackend } from '../../contracts/keyed-state.ts';
import { keyGroupRangeFor } from '../../state/keygroups.ts';
import type { OperatorContext } from '../../contracts/operator.ts';
import { InputGate, type Channel } from './channel.ts';
import { ChainLink, OperatorChain } from './task-chain.ts';
import { TaskOutput, type RoutedEdge } from './task-output.ts';
import { TaskSubtask, type SourceRuntime, type SubtaskEnv } from './task-subtask.ts';
import { decodeWatermark } from './subtask-snapshot.ts';
import { assignState, type WrappedOperatorState } from '../common/state-assignment.ts';
import { createOperator, needsKeyedState } from './operators/registry.ts';
import type { OperatorServices } from '../../contracts/operator-services.ts';
import { createStateBackend } from './state-factory.ts';
import { createSourceReader, sourceWatermarkSettings } from '../../connectors/sources.ts';
import { sourceReadColumns } from '../../graph/read-columns.ts';
import { BoundedOutOfOrdernessWatermarks, IdlenessTimer } from '../../time/watermark-generator.ts';
import type { HostToTask, TaskStartMessage, TaskToHost } from '../common/task-protocol.ts';
import { collectMetrics } from './task-metrics.ts';
import { EdgeTap, edgeTarget } from './edge-sampler.ts';
import type { OutputPort } from '../../contracts/operator.ts';

const CHANNEL_CAPACITY = 8;
/**
 * The first metrics go out this soon after `ready`, not a whole interval later: the app's Run
 * button to the first record shown is bounded by it (issue 27: <= 500 ms, of which the 250 ms
 * interval was half).
 */
const FIRST_METRICS_MS = 40;

export class TaskProcessRuntime {
  private subtasks: TaskSubtask[] = [];
  private backends: KeyedStateBackend[] = [];
  private storage!: CheckpointWorkerStorage;
  private exhaustedCount = 0;
  private finishedCount = 0;
  private metricsTimer: NodeJS.Timeout | null = null;
  private firstMetricsTimer: NodeJS.Timeout | null = null;
  private failed = false;
  private currentBarrier: CheckpointBarrier | null = null;
  private running: Promise<void> = Promise.resolve();
  /** Output ports whose records are sampled (`node\0port`), kept for subtasks built later. */
  private readonly sampled = new Set<string>();

  constructor(
    private readonly send: (m: TaskToHost) => void,
    private readonly exit: (code: number) => void,
  ) {}

  handle(m: HostToTask): void {
    switch (m.type) {
      case 'start':
        void this.boot(m).catch((e) => this.fail(e));
        break;
      case 'trigger':
        this.trigger(m.barrier);
        break;
      case 'notify':
        void this.notify(m.checkpointId).catch((e) => this.fail(e));
        break;
      case 'sample':
        this.setSample(m.nodeId, m.port, m.on);
        break;
      case 'close':
        void this.close().catch((e) => this.fail(e));
        break;
    }
  }

  fail(e: unknown): void {
    if (this.failed) return;
    this.failed = true;
    const err = e as Error;
    const message =
      err?.name && /Error$/.test(err.name) && err.name !== 'Error' && err.name !== 'TypeError'
        ? err.message
        : (err?.message ?? String(e));
    this.send({ type: 'failed', message: process.env.WEIR_DEBUG ? String(err?.stack ?? message) : message });
    this.stopMetrics();
    this.exit(1);
  }

  private async boot(m: TaskStartMessage): Promise<void> {
    const { job, plan, restore } = m;
    const checkpointing = job.settings.checkpointing.interval !== null;
    this.storage = createWorkerStorage({ jobName: job.name, settings: job.settings, baseDir: job.baseDir });
    const byId = new Map(job.nodes.map((n) => [n.id, n]));
    const baseDir = job.baseDir ?? process.cwd();
    const services: OperatorServices = {
      lineage: m.lineage,
      attempt: m.attempt,
      checkpointing,
      sendPreview: (target, records) => this.send({ type: 'preview', target, records }),
      log: (level, message) => this.send({ type: 'log', level, kind: 'notice', message }),
    };
    const env: SubtaskEnv = {
      exactlyOnce: job.settings.checkpointing.mode === 'exactly-once',
      checkpointing,
      memoryStateLimit: job.settings.stateBackend === 'memory' ? job.settings.memoryStateLimit : null,
      ack: (ack) => this.send({ type: 'ack', ack }),
      decline: (checkpointId, reason, stats) =>
        this.send({ type: 'decline', checkpointId, reason, ...(stats ? { stats } : {}) }),
      exhausted: () => {
        if (++this.exhaustedCount === this.sourceCount()) this.send({ type: 'exhausted' });
      },
      currentBarrier: () => this.currentBarrier,
      finished: () => {
        if (++this.finishedCount === this.subtasks.length) this.send({ type: 'finished' });
      },
    };
    const lastCheckpointId = restore?.checkpointId ?? 0;

    // Gates of non-source chains, with the logical input index of each channel.
    const gates = new Map<string, { gate: InputGate; inputs: number[] }>();
    const key = (c: number, s: number) => `${c}#${s}`;
    for (const c of plan.chains) {
      if (c.isSource) continue;
      for (let s = 0; s < c.parallelism; s++) gates.set(key(c.index, s), { gate: new InputGate(), inputs: [] });
    }
    // Channels: one per (network edge, upstream subtask, downstream subtask) that exchange data.
    const routed = new Map<string, RoutedEdge[]>();
    for (const e of plan.edges) {
      const up = plan.chains[e.fromChain];
      const down = plan.chains[e.toChain];
      for (let i = 0; i < up.parallelism; i++) {
        const chans: Channel[] = [];
        for (let j = 0; j < down.parallelism; j++) {
          if (e.partitioning === 'forward' && i !== j) continue;
          // A global edge sends its records to subtask 0 only, but every subtask gets a channel, as in
          // Flink's GlobalPartitioner: barriers, watermarks and the end of input reach the others,
          // which would otherwise never acknowledge a checkpoint nor finish.
          const g = gates.get(key(down.index, j))!;
          chans[j] = g.gate.addChannel(CHANNEL_CAPACITY, `${e.fromNode}#${i}${e.port === 'late' ? '.late' : ''}`);
          g.inputs.push(e.inputIndex);
        }
        const list = routed.get(key(up.index, i)) ?? [];
        list.push({ edge: e, channels: chans, targetParallelism: down.parallelism });
        routed.set(key(up.index, i), list);
      }
    }

    for (const c of plan.chains) {
      for (let s = 0; s < c.parallelism; s++) {
        const output = new TaskOutput(routed.get(key(c.index, s)) ?? [], s, plan.maxParallelism);
        const opNodes = (c.isSource ? c.nodes.slice(1) : c.nodes).map((id) => byId.get(id)!);
        const links: ChainLink[] = [];
        let headWatermark = -Infinity;
        for (const node of opNodes) {
          const range = keyGroupRangeFor(plan.maxParallelism, c.parallelism, s);
          const assigned = restore ? assignState(restore.states, node.id, s, c.parallelism, range, false) : null;
          const op = createOperator(node, job, services);
          const link = new ChainLink(node.id, op);
          let state: KeyedStateBackend | null = null;
          if (needsKeyedState(node)) {
            state = await createStateBackend(job, node.id, s, range, this.storage);
            this.backends.push(state);
            link.state = state;
            if (assigned?.keyed.length) await state.restore(assigned.keyed, range);
          }
          const wm = decodeWatermark(assigned?.watermark);
          link.inputWatermark = wm;
          link.outputWatermark = wm;
          if (links.length === 0) headWatermark = wm;
          const ctx: OperatorContext = {
            nodeId: node.id,
            subtask: s,
            parallelism: c.parallelism,
            maxParallelism: plan.maxParallelism,
            keyGroupRange: range,
            state,
            metrics: {
              lateRecords: (n) => {
                link.lateRecords += n;
              },
              badRecords: (n) => {
                link.badRecords += n;
              },
            },
            resolvePath: (p) => resolvePath(baseDir, p),
          };
          await op.open(ctx, link, assigned ? { operator: assigned.operator } : undefined);
          links.push(link);
        }
        const chain = new OperatorChain(links, output);
        let source: SourceRuntime | null = null;
        if (c.isSource)
          source = this.buildSource(byId.get(c.nodes[0])!, job, s, c.parallelism, restore?.states ?? null);
        const g = gates.get(key(c.index, s));
        this.subtasks.push(
          new TaskSubtask(
            c.index,
            s,
            c.parallelism,
            chain,
            output,
            env,
            g?.gate ?? null,
            g?.inputs ?? [],
            source,
            source ? source.watermark : headWatermark,
            lastCheckpointId,
          ),
        );
      }
    }
    for (const k of this.sampled) {
      const [n, p] = k.split('\0');
      this.setSample(n, p as OutputPort, true);
    }
    this.send({ type: 'ready' });
    this.metricsTimer = setInterval(() => void this.reportMetrics(), m.metricsInterval);
    this.metricsTimer.unref();
    if (m.metricsInterval > FIRST_METRICS_MS) {
      this.firstMetricsTimer = setTimeout(() => void this.reportMetrics(), FIRST_METRICS_MS);
      this.firstMetricsTimer.unref();
    }
    this.running = Promise.all(this.subtasks.map((t) => t.run())).then(() => undefined);
    await this.running;
  }

  private sourceCount(): number {
    return this.subtasks.filter((t) => t.source).length;
  }

  private buildSource(
    node: JobNode,
    job: NormalizedJob,
    s: number,
    p: number,
    states: SubtaskStateSnapshot[] | null,
  ): SourceRuntime {
    const baseDir = job.baseDir ?? process.cwd();
    // Every subtask sees the positions of all old subtasks (a union) and takes its share of splits;
    // its max timestamp and watermark come from its own old state, or after a rescale from the
    // smallest inherited one, so no record of an inherited split becomes late.
    const mine = (states ?? []).filter((x) => x.operatorId === node.id).sort((a, b) => a.subtask - b.subtask);
    const unwrap = (x: SubtaskStateSnapshot) => x.operator as WrappedOperatorState | undefined;
    const sameP = mine.length > 0 && mine[0].parallelism === p;
    const timeStates = sameP ? mine.filter((x) => x.subtask === s) : mine;
    const positions = mine.map((x) => (unwrap(x)?.state as { position?: unknown } | undefined)?.position);
    let maxTs: number | null = null;
    let restoredWm: number | null = null;
    for (const x of timeStates) {
      const st = unwrap(x)?.state as { maxTimestamp?: number | null } | undefined;
      if (typeof st?.maxTimestamp === 'number')
        maxTs = maxTs === null ? st.maxTimestamp : Math.min(maxTs, st.maxTimestamp);
      const w = unwrap(x)?.watermark;
      if (typeof w === 'number') restoredWm = restoredWm === null ? w : Math.min(restoredWm, w);
    }
    let badRecords = 0;
    const reader = createSourceReader(
      node,
      {
        subtask: s,
        parallelism: p,
        resolvePath: (x) => resolvePath(baseDir, x),
        jobName: job.name,
        // warn, not info: the CLI prints it, and a slot left behind holds WAL.
        notice: (message) => this.send({ type: 'log', level: 'warn', kind: 'notice', message }),
        badRecord: (where, message) => {
          badRecords++;
          rt.badRecords = badRecords;
          if (badRecords <= 10)
            this.send({
              type: 'log',
              level: 'warn',
              kind: 'bad-record',
              message: `${where}: ${message}${badRecords === 10 ? ' (further bad records are only counted)' : ''}`,
            });
        },
      },
      positions,
      sourceReadColumns(job, node.id),
    );
    const wmCfg = sourceWatermarkSettings(node);
    const rt: SourceRuntime = {
      nodeId: node.id,
      reader,
      watermarks: new BoundedOutOfOrdernessWatermarks(wmCfg.maxOutOfOrderness, maxTs),
      idleness: new IdlenessTimer(wmCfg.idleTimeout, Date.now()),
      watermark: decodeWatermark(restoredWm),
      recordsOut: 0,
      badRecords: 0,
      busyMs: 0,
      exhausted: false,
      finalBarrierDone: false,
      tap: null,
    };
    return rt;
  }

  private trigger(barrier: CheckpointBarrier): void {
    this.storage?.beginCheckpoint(barrier);
    this.currentBarrier = barrier;
    if (process.env.WEIR_TRACE)
      process.stderr.write(
        `[weir trace] task: trigger ${barrier.id} ${this.subtasks.map((t) => `${t.name}:${t.finished ? 'F' : ''}${t.source ? 'S' : ''}`).join(' ')}\n`,
      );
    for (const t of this.subtasks) {
      if (t.source || t.finished) t.triggerCheckpoint(barrier).catch((e) => this.fail(e));
    }
  }

  private async notify(id: number): Promise<void> {
    await Promise.all(this.subtasks.map((t) => t.notifyCheckpointComplete(id)));
    this.send({ type: 'notified', checkpointId: id });
  }

  /** Switch the tap of every subtask of `nodeId` on `port` (idempotent; taps keep their samples). */
  private setSample(nodeId: string, port: OutputPort, on: boolean): void {
    const k = `${nodeId}\0${port}`;
    if (on) this.sampled.add(k);
    else this.sampled.delete(k);
    for (const t of this.subtasks) {
      // A sampled edge shows records as they are in the file, so readers build whole rows meanwhile.
      t.source?.reader.showAllColumns?.(this.sampled.size > 0);
      if (t.source?.nodeId === nodeId && port === 'out') t.source.tap = on ? (t.source.tap ?? new EdgeTap()) : null;
      for (const l of t.chain.links) {
        if (l.nodeId !== nodeId) continue;
        if (port === 'out') l.tapOut = on ? (l.tapOut ?? new EdgeTap()) : null;
        else l.tapLate = on ? (l.tapLate ?? new EdgeTap()) : null;
      }
    }
  }

  /** What the taps sampled since the last report, one preview message per subtask and port. */
  private flushSamples(): void {
    if (this.sampled.size === 0) return;
    for (const t of this.subtasks) {
      const records = t.source?.tap?.take();
      if (records)
        this.send({ type: 'preview', target: `${edgeTarget(t.source!.nodeId, 'out')}#${t.subtask}`, records });
      for (const l of t.chain.links) {
        const out = l.tapOut?.take();
        if (out) this.send({ type: 'preview', target: `${edgeTarget(l.nodeId, 'out')}#${t.subtask}`, records: out });
        const late = l.tapLate?.take();
        if (late) this.send({ type: 'preview', target: `${edgeTarget(l.nodeId, 'late')}#${t.subtask}`, records: late });
      }
    }
  }

  private async reportMetrics(): Promise<void> {
    if (this.failed) return;
    this.flushSamples();
    try {
      this.send({ type: 'metrics', time: Date.now(), operators: await collectMetrics(this.subtasks) });
    } catch {
      /* metrics are best effort */
    }
  }

  private stopMetrics(): void {
    if (this.metricsTimer) clearInterval(this.metricsTimer);
    this.metricsTimer = null;
    if (this.firstMetricsTimer) clearTimeout(this.firstMetricsTimer);
    this.firstMetricsTimer = null;
  }

  /** After `finished`, or to stop a running job (stop/cancel): loops leave, then operators close. */
  private async close(): Promise<void> {
    this.stopMetrics();
    for (const t of this.subtasks) t.cancel();
    await this.running.catch(() => undefined);
    await this.reportMetrics();
    for (const t of this.subtasks) {
      for (const l of t.chain.links) await l.op.close();
      await t.source?.reader.close();
    }
    for (const b of this.backends) await b.dispose();
    this.send({ type: 'closed' });
    this.exit(0);
  }
}
