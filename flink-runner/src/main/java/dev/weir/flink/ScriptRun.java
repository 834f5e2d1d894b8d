package dev.weir.flink;

import dev.weir.flink.ScriptSplitter.Kind;
import dev.weir.flink.ScriptSplitter.Statement;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * One script on the shared MiniCluster, in a fresh TableEnvironment (its own catalog, its own
 * configuration): statement by statement, each job followed to its end before the next statement
 * (as the SQL client with table.dml-sync).
 */
final class ScriptRun {
  private static final Pattern SET = Pattern.compile("(?is)^SET\\s+'([^']*)'\\s*=\\s*'((?:[^']|'')*)'$");

  private final Reporter reporter;
  private final URI rest;
  private final Map<String, String> overrides;
  private final long jobTimeoutMs;
  int jobs = 0;

  ScriptRun(Reporter reporter, URI rest, Map<String, String> overrides, long jobTimeoutMs) {
    this.reporter = reporter;
    this.rest = rest;
    this.overrides = overrides;
    this.jobTimeoutMs = jobTimeoutMs;
  }

  /** The script's SET options with the overrides on top (they win). */
  static Map<String, String> configOf(List<Statement> statements, Map<String, String> overrides) {
    Map<String, String> config = new LinkedHashMap<>();
    for (Statement s : statements) {
      if (s.kind() != Kind.SET) continue;
      Matcher m = SET.matcher(s.sql());
      if (m.matches()) config.put(m.group(1), m.group(2).replace("''", "'"));
    }
    config.putAll(overrides);
    // As Flink's own config.yaml: without it the planner would take the machine's core count,
    // more slots than the MiniCluster has for a script that sets no parallelism.
    config.putIfAbsent("parallelism.default", "1");
    return config;
  }

  /** Null when every statement succeeded and every job finished, else the error in one line. */
  String run(List<Statement> statements) throws InterruptedException {
    // Every SET of the script configures the environment from the start, so options read only
    // when it is created (checkpointing, restarts) take effect.
    Configuration conf = Configuration.fromMap(configOf(statements, overrides));
    conf.setString("execution.target", "remote");
    conf.setString("rest.address", rest.getHost());
    conf.setString("rest.port", String.valueOf(rest.getPort()));
    TableEnvironment tEnv;
    try {
      tEnv = TableEnvironment.create(EnvironmentSettings.newInstance().withConfiguration(conf).build());
    } catch (Exception e) {
      return Main.describe(e);
    }
    for (int i = 0; i < statements.size(); i++) {
      Statement s = statements.get(i);
      ObjectNode st = reporter.event("statement");
      st.put("index", i);
      st.put("line", s.line());
      st.put("kind", s.kind().name());
      st.put("sql", ScriptSplitter.firstLine(s.sql()));
      reporter.emit(st);
      try {
        TableResult result;
        if (s.kind() == Kind.SET || s.kind() == Kind.RESET) {
          Matcher m = SET.matcher(s.sql());
          if (m.matches() && !overrides.containsKey(m.group(1)))
            tEnv.getConfig().set(m.group(1), m.group(2).replace("''", "'"));
          continue;
        } else if (s.kind() == Kind.STATEMENT_SET) {
          StatementSet set = tEnv.createStatementSet();
          for (String insert : s.inserts()) set.addInsertSql(insert);
          result = set.execute();
        } else {
          result = tEnv.executeSql(s.sql());
        }
        if (result.getJobClient().isPresent()) {
          jobs++;
          String error = watch(result, s);
          if (error != null) return "line " + s.line() + ": " + error;
        } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
          emitRows(result);
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        return "line " + s.line() + ": " + Main.describe(e);
      }
    }
    return null;
  }

  /** Follows the statement's job to its end; null when it finished, else Flink's error. */
  private String watch(TableResult result, Statement s) throws Exception {
    JobClient client = result.getJobClient().get();
    String jobId = client.getJobID().toHexString();
    ObjectNode job = reporter.event("job");
    job.put("jobId", jobId);
    job.put("line", s.line());
    job.put("restUrl", rest.toString());
    reporter.emit(job);
    long start = System.currentTimeMillis();
    JobMonitor monitor = new JobMonitor(rest, reporter, jobId);
    // A query's rows come before its end (an INSERT's single row, its -1 count, is not reported).
    if (s.kind() == Kind.OTHER && result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) emitRows(result);
    CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
    if (!monitor.watch(done, jobTimeoutMs)) {
      client.cancel().get();
      String error = "the job was still running after " + jobTimeoutMs / 1000 + " s (--job-timeout) and was canceled";
      ObjectNode failure = reporter.event("failure");
      failure.put("jobId", jobId);
      failure.put("message", error);
      failure.put("final", true);
      reporter.emit(failure);
      return error;
    }
    try {
      if (!done.isDone() && "FINISHED".equals(monitor.poll())) {
        // finished: the REST view said so before the client's result future did
      } else done.get();
    } catch (ExecutionException e) {
      ObjectNode failure = reporter.event("failure");
      failure.put("jobId", jobId);
      failure.put("message", Main.describe(e));
      failure.put("final", true);
      reporter.emit(failure);
      return Main.describe(e);
    }
    ObjectNode finished = reporter.event("finished");
    finished.put("jobId", jobId);
    finished.setAll(monitor.summary());
    finished.put("durationMs", System.currentTimeMillis() - start);
    reporter.emit(finished);
    return null;
  }

  private void emitRows(TableResult result) throws Exception {
    try (CloseableIterator<Row> rows = result.collect()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        ObjectNode e = reporter.event("row");
        e.put("kind", row.getKind().shortString());
        ArrayNode values = e.putArray("values");
        for (int f = 0; f < row.getArity(); f++) {
          Object v = row.getField(f);
          if (v == null) values.addNull();
          else values.add(String.valueOf(v));
        }
        reporter.emit(e);
      }
    }
  }
}
