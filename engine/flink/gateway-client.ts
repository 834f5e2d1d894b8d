/**
 * A client of the Flink SQL Gateway's REST API (v2, served by Flink 1.17 and later): a session,
 * one statement at a time (submit, wait for the operation, read its result pages), the jobs the
 * cluster runs (`SHOW JOBS`) and `STOP JOB ... WITH SAVEPOINT`. Errors are Flink's, in one line.
 * https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/table/sql-gateway/rest/
 */

export class GatewayError extends Error {}

interface ResultPage {
  resultType: 'NOT_READY' | 'PAYLOAD' | 'EOS';
  jobID?: string;
  results?: { data?: Array<{ kind: string; fields: unknown[] }> };
  nextResultUri?: string;
}

export interface StatementResult {
  jobId?: string;
  rows: unknown[][];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The telling line of a Java stack trace: its innermost "Caused by", with the exception's simple
 * class name (`ArithmeticException: / by zero`).
 */
export function innermostCause(trace: string): string {
  const causes = [...trace.matchAll(/^Caused by: (.+)$/gm)].map((m) => m[1]);
  const last =
    causes.at(-1) ?? trace.split('\n').find((l) => l.trim() !== '' && l !== 'Internal server error.') ?? trace;
  return last
    .replace(/^[\w.$]+\.(\w+(?:Exception|Error)):/, '$1:')
    .replace(/^(\w+): [\w.$]+\.\1: /, '$1: ')
    .trim();
}

function gatewayMessage(body: unknown, status: number): string {
  const errors = (body as { errors?: unknown[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `HTTP ${status}`;
  return innermostCause(errors.map(String).join('\n'));
}

export class SqlGatewayClient {
  private readonly base: string;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, '');
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      const c = (e as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
      const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message ?? (e as Error).message;
      throw new GatewayError(`cannot reach the SQL Gateway at ${this.base} (${cause})`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      throw new GatewayError(`${this.base} is not a Flink SQL Gateway (HTTP ${res.status}, not JSON)`);
    }
    if (!res.ok) throw new GatewayError(gatewayMessage(json, res.status));
    return json;
  }

  async openSession(properties: Record<string, string>): Promise<string> {
    const r = (await this.call('POST', '/v2/sessions', { sessionName: 'weir', properties })) as {
      sessionHandle: string;
    };
    return r.sessionHandle;
  }

  async closeSession(session: string): Promise<void> {
    await this.call('DELETE', `/v2/sessions/${session}`).catch(() => undefined);
  }

  /** The session's configuration (rest.address and rest.port name the cluster's web UI). */
  async sessionConfig(session: string): Promise<Record<string, string>> {
    const r = (await this.call('GET', `/v2/sessions/${session}`)) as { properties?: Record<string, string> };
    return r.properties ?? {};
  }

  /** Runs one statement to the end of its operation and reads every result page. */
  async execute(session: string, statement: string): Promise<StatementResult> {
    const { operationHandle } = (await this.call('POST', `/v2/sessions/${session}/statements`, { statement })) as {
      operationHandle: string;
    };
    const rows: unknown[][] = [];
    let jobId: string | undefined;
    let next: string | undefined = `/v2/sessions/${session}/operations/${operationHandle}/result/0?rowFormat=JSON`;
    while (next) {
      const page = (await this.call('GET', next)) as ResultPage;
      if (page.jobID) jobId = page.jobID;
      for (const row of page.results?.data ?? []) rows.push(row.fields);
      if (page.resultType === 'EOS') break;
      if (page.resultType === 'NOT_READY') await sleep(100);
      else next = page.nextResultUri ?? next;
    }
    await this.call('DELETE', `/v2/sessions/${session}/operations/${operationHandle}/close`).catch(() => undefined);
    return { ...(jobId ? { jobId } : {}), rows };
  }

  /** The job's status as `SHOW JOBS` lists it (RUNNING, FINISHED, FAILED, ...), or undefined. */
  async jobStatus(session: string, jobId: string): Promise<string | undefined> {
    const { rows } = await this.execute(session, 'SHOW JOBS');
    const row = rows.find((r) => r[0] === jobId);
    return row ? String(row[2]) : undefined;
  }
}
