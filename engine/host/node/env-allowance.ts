/**
 * Which environment variables a page may make the host read. A PostgreSQL node names the variable
 * holding its password (`passwordEnv`), and the host sends that value to the server in the node's
 * URL, so over `weir serve` and the app any variable the page names (`AWS_SECRET_ACCESS_KEY`) would
 * reach any host:port it names. The page may only name variables the user allowed: those starting
 * with `WEIR_`, and the names given to `weir serve --allow-env NAME,...`.
 *
 * Checked for "Test connection" (testPostgres) and for every run started through the host, before
 * anything connects. The CLI's own `weir run` does not come here: its user is the shell, whose
 * environment it is.
 */
import type { JobProblem, NormalizedJob } from '../../graph/types.ts';
import { HostError } from '../common/errors.ts';
import { nodeDefinition } from '../../graph/node-types.ts';

export const ALLOWED_ENV_PREFIX = 'WEIR_';

export interface EnvAllowance {
  /** Variables allowed by name besides the `WEIR_` prefix. */
  readonly names: readonly string[];
  /** How the user allows one more name here (what the refusal tells them). */
  readonly howToAllow: (name: string) => string;
}

export function envAllowance(
  names: readonly string[] = [],
  howToAllow: (name: string) => string = (n) => `start \`weir serve --allow-env ${n}\``,
): EnvAllowance {
  return { names: [...names], howToAllow };
}

/** The names of `--allow-env A,B` (`weir serve`, the app), or the one that is no variable name. */
export function parseAllowEnv(list: string | undefined): { names: string[] } | { bad: string } {
  const names = (list ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  return bad === undefined ? { names } : { bad };
}

/** null when `name` may be read; otherwise the refusal, naming the variable and how to allow it. */
export function envRefusal(name: string, allowance: EnvAllowance): string | null {
  if (name.startsWith(ALLOWED_ENV_PREFIX) && name.length > ALLOWED_ENV_PREFIX.length) return null;
  if (allowance.names.includes(name)) return null;
  return (
    `the environment variable ${name} may not be read here: a job may read only variables whose name ` +
    `starts with ${ALLOWED_ENV_PREFIX} or that the user allowed; rename it (e.g. ${ALLOWED_ENV_PREFIX}${name}) ` +
    `or ${allowance.howToAllow(name)}`
  );
}

/** Refuses (`invalid_job`, one problem per node) a job naming a variable the user did not allow. */
export function checkJobEnv(job: NormalizedJob, allowance: EnvAllowance): void {
  const problems: JobProblem[] = [];
  for (const [i, n] of job.nodes.entries()) {
    for (const key of nodeDefinition(n.type).envKeys ?? []) {
      const name = (n.config as Record<string, unknown>)[key];
      const refusal = typeof name === 'string' ? envRefusal(name, allowance) : null;
      if (refusal) problems.push({ path: `nodes[${i}].config.${key}`, message: refusal, nodeId: n.id });
    }
  }
  const first = problems[0];
  if (first) throw new HostError('invalid_job', `${first.path}: ${first.message}`, problems);
}
