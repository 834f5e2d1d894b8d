package dev.weir.flink;

import java.io.PrintStream;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The runner's protocol: one JSON object per line on the real stdout, each with an "event" field
 * (started, statement, job, progress, failure, stdout, finished, end). Everything else the JVM
 * prints to System.out (a 'print' sink) is wrapped into "stdout" events, so stdout stays parseable.
 */
final class Reporter {
  static final ObjectMapper JSON = new ObjectMapper();
  private final PrintStream out;

  Reporter(PrintStream out) {
    this.out = out;
  }

  ObjectNode event(String name) {
    ObjectNode node = JSON.createObjectNode();
    node.put("event", name);
    return node;
  }

  synchronized void emit(ObjectNode event) {
    try {
      out.println(JSON.writeValueAsString(event));
    } catch (Exception e) {
      out.println("{\"event\":\"failure\",\"message\":\"cannot write an event\"}");
    }
    out.flush();
  }
}
