/**
 * `HostError`: how every failure crosses the host API. Only `{ code, message, problems? }` ever
 * crosses a transport; stacks and causes stay on the side that threw. Browser-safe.
 */
import type { JobProblem } from '../../graph/types.ts';
import type { HostErrorCode, HostErrorShape } from './api.ts';
import { HOST_ERROR_CODES } from './schemas.ts';

export class HostError extends Error implements HostErrorShape {
  readonly code: HostErrorCode;
  readonly problems?: JobProblem[];

  constructor(code: HostErrorCode, message: string, problems?: JobProblem[]) {
    super(message);
    this.name = 'HostError';
    this.code = code;
    if (problems) this.problems = problems;
  }

  toJSON(): HostErrorShape {
    return this.problems
      ? { code: this.code, message: this.message, problems: this.problems }
      : { code: this.code, message: this.message };
  }
}

const CODES: ReadonlySet<string> = new Set<HostErrorCode>(HOST_ERROR_CODES);

function isHostErrorShape(value: unknown): value is HostErrorShape {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && CODES.has(v.code) && typeof v.message === 'string';
}

/** Rebuilds a HostError from its wire shape (or anything thrown), never keeping a stack's text. */
export function toHostError(value: unknown): HostError {
  if (value instanceof HostError) return value;
  if (isHostErrorShape(value)) {
    return new HostError(value.code, value.message, Array.isArray(value.problems) ? value.problems : undefined);
  }
  // Node's fs errors carry a code; say which file and what, without the stack.
  if (value instanceof Error) {
    const code = (value as Error & { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      return new HostError(code === 'ENOENT' ? 'not_found' : 'io_error', value.message);
    }
    return new HostError('internal', value.message || 'internal error');
  }
  return new HostError('internal', typeof value === 'string' ? value : 'internal error');
}

/** The wire shape of any thrown value. */
export function errorShape(value: unknown): HostErrorShape {
  return toHostError(value).toJSON();
}
