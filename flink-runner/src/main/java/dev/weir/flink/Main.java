package dev.weir.flink;

import dev.weir.flink.ScriptSplitter.Statement;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Runs Flink SQL scripts on one local MiniCluster and reports JSON lines on stdout (see Reporter).
 * Usage: {@code Main SCRIPT.sql... [--set key=value]... [--job-timeout SECONDS]}. Each script runs in its own
 * TableEnvironment (ScriptRun), one after another: one JVM start serves many scripts (the parity
 * test runs a corpus this way). The --set options win over the scripts' SET statements
 * (weir flink run --parallelism passes parallelism.default). Exit code 0 when every script
 * succeeded and every job finished, 1 otherwise, 2 for bad arguments.
 */
public final class Main {
  public static void main(String[] args) {
    ParentWatch.start();
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    Reporter reporter = new Reporter(protocol);
    System.setOut(new PrintStream(new LineEvents(reporter), true, StandardCharsets.UTF_8));
    int code;
    try {
      code = run(args, reporter);
    } catch (Throwable t) {
      ObjectNode end = reporter.event("end");
      end.put("ok", false);
      end.put("error", describe(t));
      reporter.emit(end);
      code = 1;
    }
    System.exit(code);
  }

  private static int run(String[] args, Reporter reporter) throws Exception {
    List<String> files = new ArrayList<>();
    Map<String, String> overrides = new LinkedHashMap<>();
    long jobTimeoutMs = 0;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--job-timeout") && i + 1 < args.length) {
        try {
          jobTimeoutMs = Long.parseLong(args[++i]) * 1000;
        } catch (NumberFormatException e) {
          return usage(reporter, "--job-timeout expects seconds, got '" + args[i] + "'");
        }
      } else if (args[i].equals("--set") && i + 1 < args.length) {
        String kv = args[++i];
        int eq = kv.indexOf('=');
        if (eq <= 0) return usage(reporter, "--set expects key=value, got '" + kv + "'");
        overrides.put(kv.substring(0, eq), kv.substring(eq + 1));
      } else if (!args[i].startsWith("--")) {
        files.add(args[i]);
      } else {
        return usage(reporter, "unexpected argument '" + args[i] + "'");
      }
    }
    if (files.isEmpty()) return usage(reporter, "missing SCRIPT.sql");

    List<List<Statement>> scripts = new ArrayList<>();
    List<String> readErrors = new ArrayList<>();
    int slots = 1;
    for (String file : files) {
      List<Statement> statements = List.of();
      String error = null;
      try {
        statements = ScriptSplitter.split(Files.readString(Path.of(file)));
      } catch (ScriptSplitter.ScriptException e) {
        error = e.getMessage();
      } catch (IOException e) {
        error = "cannot read the script: " + describe(e);
      }
      scripts.add(statements);
      readErrors.add(error);
      String p = ScriptRun.configOf(statements, overrides).getOrDefault("parallelism.default", "1");
      try {
        slots = Math.max(slots, Integer.parseInt(p.trim()));
      } catch (NumberFormatException e) {
        // Flink reports the bad value when the script runs
      }
    }

    MiniCluster cluster = LocalCluster.start(slots);
    URI rest = cluster.getRestAddress().get();

    ObjectNode started = reporter.event("started");
    started.put("flinkVersion", EnvironmentInformation.getVersion());
    started.put("slots", slots);
    started.put("restUrl", rest.toString());
    started.put("scripts", files.size());
    reporter.emit(started);

    int jobs = 0, failed = 0;
    String firstError = null;
    for (int i = 0; i < files.size(); i++) {
      ObjectNode script = reporter.event("script");
      script.put("index", i);
      script.put("file", files.get(i));
      script.put("statements", scripts.get(i).size());
      reporter.emit(script);
      ScriptRun run = new ScriptRun(reporter, rest, overrides, jobTimeoutMs);
      String error = readErrors.get(i) != null ? readErrors.get(i) : run.run(scripts.get(i));
      jobs += run.jobs;
      ObjectNode end = reporter.event("scriptEnd");
      end.put("index", i);
      end.put("file", files.get(i));
      end.put("ok", error == null);
      if (error != null) {
        end.put("error", error);
        failed++;
        if (firstError == null) firstError = files.size() == 1 ? error : files.get(i) + ": " + error;
      }
      reporter.emit(end);
    }
    ObjectNode end = reporter.event("end");
    end.put("ok", failed == 0);
    end.put("jobs", jobs);
    end.put("failedScripts", failed);
    if (firstError != null) end.put("error", firstError);
    reporter.emit(end);
    cluster.close();
    return failed == 0 ? 0 : 1;
  }

  private static int usage(Reporter reporter, String message) {
    ObjectNode end = reporter.event("end");
    end.put("ok", false);
    end.put("error", "usage: " + message + " (Main SCRIPT.sql... [--set key=value]...)");
    reporter.emit(end);
    return 2;
  }

  /**
   * Flink's error in one line: the innermost cause that says something, after the wrappers
   * ("Job execution failed", "Recovery is suppressed by ...") that only say where it surfaced.
   */
  static String describe(Throwable t) {
    String lastMessage = null;
    Throwable innermost = t;
    int depth = 0;
    for (Throwable c = t; c != null && depth < 30; c = c.getCause(), depth++) {
      innermost = c;
      if (c.getMessage() != null && !c.getMessage().isBlank()) lastMessage = c.getMessage();
    }
    String message = innermost.getMessage();
    if (message == null || message.isBlank()) message = lastMessage != null ? lastMessage : innermost.getClass().getName();
    return innermost.getClass().getSimpleName() + ": " + message.strip().replaceAll("\\s*\\n\\s*", " | ");
  }

  /** What the JVM prints to System.out (a 'print' sink), as "stdout" events, one per line. */
  private static final class LineEvents extends OutputStream {
    private final Reporter reporter;
    private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

    LineEvents(Reporter reporter) {
      this.reporter = reporter;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        ObjectNode e = reporter.event("stdout");
        e.put("line", line.toString(StandardCharsets.UTF_8));
        reporter.emit(e);
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
