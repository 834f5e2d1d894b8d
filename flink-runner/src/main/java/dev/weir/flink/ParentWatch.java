package dev.weir.flink;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends the JVM when the process that started it is gone. Weir spawns the runner with a pipe on its
 * stdin and never writes to it: the pipe reaches end-of-file only when every writer is closed, which
 * happens when the parent exits for any reason, SIGKILL included. Without this a killed
 * `weir flink run` (or a test process) left a MiniCluster JVM running with nobody reading its output.
 * Off unless {@code -Dweir.exitWithParent=true}: run by hand with stdin on a terminal or /dev/null,
 * the runner must not stop at once.
 */
final class ParentWatch {
  private ParentWatch() {}

  static void start() {
    if (!Boolean.getBoolean("weir.exitWithParent")) return;
    Thread t =
        new Thread(
            () -> {
              InputStream in = System.in;
              byte[] buf = new byte[256];
              try {
                while (in.read(buf) >= 0) {
                  // Nothing is ever sent; keep reading until the parent closes the pipe.
                }
              } catch (IOException e) {
                // A broken pipe means the same as end-of-file.
              }
              // halt, not exit: shutdown hooks may wait on a MiniCluster nobody will ever read from.
              Runtime.getRuntime().halt(143);
            },
            "weir-parent-watch");
    t.setDaemon(true);
    t.start();
  }
}
