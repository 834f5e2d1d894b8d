package dev.weir.flink;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Watches one job through the MiniCluster's REST API (the same endpoints as the web UI): the job
 * graph's vertices with records in/out, completed checkpoints and each new entry of the exception
 * history, reported as "progress" and "failure" events while the job runs and once more at its end.
 */
final class JobMonitor {
  private static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED");
  private static final Duration POLL = Duration.ofMillis(200);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI rest;
  private final Reporter reporter;
  private final String jobId;
  private final Set<Long> seenFailures = new HashSet<>();
  private String lastProgress = "";
  private long checkpoints = 0;

  JobMonitor(URI rest, Reporter reporter, String jobId) {
    this.rest = rest;
    this.reporter = reporter;
    this.jobId = jobId;
  }

  /**
   * Polls until {@code done} completes or the REST view shows the job FINISHED (the client's
   * result future learns of it up to 2 s later: it polls with a growing back-off); false when
   * {@code timeoutMs} (0: none) passed first.
   */
  boolean watch(CompletableFuture<?> done, long timeoutMs) throws InterruptedException {
    long deadline = timeoutMs > 0 ? System.currentTimeMillis() + timeoutMs : Long.MAX_VALUE;
    while (!done.isDone()) {
      if (System.currentTimeMillis() > deadline) return false;
      if ("FINISHED".equals(poll())) return true;
      try {
        done.get(POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        // still running, or finished (the caller reads the result)
      }
    }
    return true;
  }

  /** The final vertices and checkpoint count (for the "finished" event). */
  ObjectNode summary() throws InterruptedException {
    ObjectNode node = Reporter.JSON.createObjectNode();
    // The REST view lags the job's result by a moment: wait (at most 5 s) until it shows the end.
    JsonNode job = get("/jobs/" + jobId);
    for (int i = 0; i < 50 && (job == null || !TERMINAL.contains(job.path("state").asText())); i++) {
      Thread.sleep(100);
      job = get("/jobs/" + jobId);
    }
    node.set("vertices", vertices(job));
    node.put("state", job == null ? "UNKNOWN" : job.path("state").asText("UNKNOWN"));
    node.put("checkpoints", completedCheckpoints());
    long running = runningMs(job);
    if (running >= 0) node.put("runningMs", running);
    return node;
  }

  /**
   * How long every subtask ran together: from the last one entering RUNNING to the last one
   * FINISHED, from the timestamps the JobManager recorded per subtask (the web UI's "Timeline").
   * Exact to the millisecond, where the 200 ms polls of the vertices' status are not. -1 when a
   * subtask lacks either timestamp (the job did not finish, or ended before all ran).
   */
  private long runningMs(JsonNode job) {
    if (job == null || !"FINISHED".equals(job.path("state").asText())) return -1;
    long allRunning = Long.MIN_VALUE;
    long lastFinished = Long.MIN_VALUE;
    for (JsonNode v : job.path("vertices")) {
      JsonNode times = get("/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/subtasktimes");
      if (times == null) return -1;
      for (JsonNode sub : times.path("subtasks")) {
        long running = sub.path("timestamps").path("RUNNING").asLong(0);
        long finished = sub.path("timestamps").path("FINISHED").asLong(0);
        if (running <= 0 || finished <= 0) return -1;
        allRunning = Math.max(allRunning, running);
        lastFinished = Math.max(lastFinished, finished);
      }
    }
    return allRunning == Long.MIN_VALUE ? -1 : Math.max(0, lastFinished - allRunning);
  }

  /** Reports progress and new failures; returns the job's state, or null when unknown. */
  String poll() {
    JsonNode job = get("/jobs/" + jobId);
    if (job == null) return null;
    ArrayNode vertices = vertices(job);
    long completed = completedCheckpoints();
    String key = job.path("state").asText() + vertices + completed;
    if (!key.equals(lastProgress)) {
      lastProgress = key;
      ObjectNode e = reporter.event("progress");
      e.put("jobId", jobId);
      e.put("state", job.path("state").asText());
      e.set("vertices", vertices);
      e.put("checkpoints", completed);
      reporter.emit(e);
    }
    reportFailures();
    return job.path("state").asText();
  }

  private ArrayNode vertices(JsonNode job) {
    ArrayNode out = Reporter.JSON.createArrayNode();
    if (job == null) return out;
    for (JsonNode v : job.path("vertices")) {
      ObjectNode o = out.addObject();
      o.put("id", v.path("id").asText());
      o.put("name", v.path("name").asText());
      o.put("parallelism", v.path("parallelism").asInt());
      o.put("status", v.path("status").asText());
      o.put("recordsIn", v.path("metrics").path("read-records").asLong());
      o.put("recordsOut", v.path("metrics").path("write-records").asLong());
    }
    return out;
  }

  private long completedCheckpoints() {
    JsonNode cp = get("/jobs/" + jobId + "/checkpoints");
    if (cp != null) checkpoints = Math.max(checkpoints, cp.path("counts").path("completed").asLong());
    return checkpoints;
  }

  private void reportFailures() {
    JsonNode ex = get("/jobs/" + jobId + "/exceptions");
    if (ex == null) return;
    for (JsonNode entry : ex.path("exceptionHistory").path("entries")) {
      long ts = entry.path("timestamp").asLong();
      if (!seenFailures.add(ts)) continue;
      ObjectNode e = reporter.event("failure");
      e.put("jobId", jobId);
      e.put("message", firstLine(entry.path("stacktrace").asText(entry.path("exceptionName").asText())));
      if (entry.hasNonNull("taskName")) e.put("task", entry.path("taskName").asText());
      e.put("timestamp", ts);
      reporter.emit(e);
    }
  }

  static String firstLine(String text) {
    int nl = text.indexOf('\n');
    return (nl < 0 ? text : text.substring(0, nl)).strip();
  }

  private JsonNode get(String path) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(rest.resolve(path)).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Reporter.JSON.readTree(r.body()) : null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      return null; // the cluster is shutting down or busy; the next poll tries again
    }
  }
}
