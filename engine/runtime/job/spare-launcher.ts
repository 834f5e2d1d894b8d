/**
 * A `TaskLauncher` that keeps one spare task process started ahead of need, as Flink's
 * TaskManagers are already running when a job is submitted: a run (or a restart) takes the spare,
 * which has loaded the runtime already, and a new spare starts a little later. The app's Run
 * button to the first record shown (issue 27: <= 500 ms) was mostly the fork and module loading
 * of the task process: 300-900 ms of it at load 3-5 on 2 cores, against ~40 ms for the host's own
 * work before the fork.
 *
 * Rules:
 * - A spare has received nothing: the task protocol starts with the host's `start` (and a task
 *   process says nothing before it), so a taken spare is exactly a freshly launched process. It
 *   is handed out once and never reused, so restarts and restores behave as with a fresh fork.
 * - A spare serves only a launch whose environment it was started with (`fingerprint`: the
 *   variables, the working folder, WEIR_TASK_NODE_ARGS among them); otherwise it is killed and the
 *   launch starts a fresh process.
 * - A spare that exited while idle is dropped, never handed out.
 * - What a spare wrote to stderr while idle (a loader's warning) reaches the run that takes it, as
 *   a fresh process's first lines would.
 * - `dispose` kills the spare and starts no other. The spare never outlives the host either way:
 *   a task process exits when its host's IPC channel closes (task-main.ts).
 * - Only long-lived hosts use it (`weir serve`, the app: LocalHostOptions.spareTaskProcess);
 *   `weir run` forks once and leaves.
 */
import type { TaskToHost } from '../common/task-protocol.ts';
import type { TaskLauncher, TaskProcessHandle } from './api.ts';

/**
 * The next spare starts when the process just launched has sent its first metrics (the run's first
 * figures are on their way to the page), failed or exited, at the latest this long after the
 * launch; not at once: on a 2-core machine a fork loading the runtime beside the run that just
 * started slowed that run's first records.
 */
const REFILL_DELAY_MS = 1000;
/** Stderr lines an idle spare keeps for the run that takes it (the last ones). */
const KEEP_IDLE_LINES = 100;

export interface SpareLauncherOptions {
  /** What a process started now would inherit; a spare serves only launches with the same value. */
  fingerprint?: () => string;
  /** The longest a launch waits for its process to speak before the next spare starts. */
  refillDelayMs?: number;
}

export interface SpareLauncher extends TaskLauncher {
  /** Kills the spare and starts no other (the host is going away). */
  dispose(): void;
}

interface Spare {
  handle: TaskProcessHandle;
  fingerprint: string;
  exited: boolean;
}

/** The environment a forked task process inherits: its variables and working folder. */
export function environmentFingerprint(): string {
  const vars = Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([process.cwd(), vars]);
}

export function spareLauncher(base: TaskLauncher, opts: SpareLauncherOptions = {}): SpareLauncher {
  const fingerprint = opts.fingerprint ?? environmentFingerprint;
  const refillDelay = opts.refillDelayMs ?? REFILL_DELAY_MS;
  let spare: Spare | null = null;
  let refill: NodeJS.Timeout | null = null;
  let disposed = false;

  function startSpare(): void {
    refill = null;
    if (disposed || spare) return;
    let handle: TaskProcessHandle;
    try {
      handle = keepingIdleStderr(base.launch());
    } catch {
      // No spare then: the next run's own launch forks, and reports what fails there.
      return;
    }
    const s: Spare = { handle, fingerprint: fingerprint(), exited: false };
    s.handle.onExit(() => {
      s.exited = true;
      if (spare === s) spare = null;
    });
    spare = s;
  }

  /** The next spare starts once `launched` sent metrics, failed or exited, or after `refillDelay`. */
  function refillAfter(launched: TaskProcessHandle): void {
    if (disposed || refill) return;
    const timer = setTimeout(startSpare, refillDelay);
    // A pending refill never keeps a host alive on its own.
    timer.unref();
    refill = timer;
    const now = () => {
      if (refill !== timer) return;
      clearTimeout(timer);
      // After the job master has handled the message that led here, not before it.
      refill = setTimeout(startSpare, 0);
      refill.unref();
    };
    launched.onMessage((m) => {
      const type = (m as TaskToHost).type;
      if (type === 'metrics' || type === 'failed' || type === 'closed') now();
    });
    launched.onExit(now);
  }

  function take(): TaskProcessHandle | null {
    const s = spare;
    spare = null;
    if (!s || s.exited) return null;
    if (s.fingerprint !== fingerprint()) {
      s.handle.kill('SIGKILL');
      return null;
    }
    return s.handle;
  }

  startSpare();
  return {
    launch(): TaskProcessHandle {
      const handle = take() ?? base.launch();
      refillAfter(handle);
      return handle;
    },
    dispose(): void {
      disposed = true;
      if (refill) clearTimeout(refill);
      refill = null;
      spare?.handle.kill('SIGKILL');
      spare = null;
    },
  };
}

/**
 * The handle with the stderr lines written before anyone listened handed to the first listener,
 * after the current synchronous code: a job master takes a launched attempt as its current one
 * right after subscribing, and drops lines of any other attempt.
 */
function keepingIdleStderr(handle: TaskProcessHandle): TaskProcessHandle {
  if (!handle.onStderr) return handle;
  const early: string[] = [];
  const listeners: Array<(line: string) => void> = [];
  handle.onStderr((line) => {
    if (listeners.length > 0) for (const l of listeners) l(line);
    else if (early.push(line) > KEEP_IDLE_LINES) early.shift();
  });
  return {
    send: (m) => handle.send(m),
    onMessage: (l) => handle.onMessage(l),
    onExit: (l) => handle.onExit(l),
    kill: (signal) => handle.kill(signal),
    get pid() {
      return handle.pid;
    },
    onStderr: (l) => {
      queueMicrotask(() => {
        for (const line of early.splice(0)) l(line);
        listeners.push(l);
      });
    },
  };
}
