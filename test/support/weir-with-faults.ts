/**
 * `weir run` with a fault hook, for crash tests only. The hook reaches the run as an option
 * (`JobFaults`, engine/runtime/job/api.ts); shipped code reads no environment variable for it.
 *
 *   node --import tsx test/support/weir-with-faults.ts --kill-host-before-notify N run JOB.json [options]
 *
 * --kill-host-before-notify N: the host SIGKILLs itself once checkpoint N is stored and before
 * anything of its commit happened (between the sinks' preCommit and commit).
 * Started by `startWeirWithFaults` (run-helpers.ts).
 */
import { runCommand } from '../../engine/cli/run.ts';
import { processIO } from '../../engine/cli/output.ts';

const USAGE = 'usage: weir-with-faults.ts --kill-host-before-notify N run JOB.json [options]';
const [flag, value, command, ...rest] = process.argv.slice(2);
const killAt = Number(value);
if (flag !== '--kill-host-before-notify' || !Number.isInteger(killAt) || command !== 'run') {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
process.exitCode = await runCommand(rest, processIO, {
  beforeNotify: (checkpointId) => {
    if (checkpointId === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
