package dev.weir.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a Flink SQL script into statements the way the SQL client does: at semicolons outside
 * quotes ('...', `...`, "...") and comments (-- and /* *&#47;), and groups a statement set
 * ({@code EXECUTE STATEMENT SET BEGIN ...; END;} or {@code BEGIN STATEMENT SET; ...; END;}) into one
 * statement whose {@code inserts} are its INSERTs.
 */
final class ScriptSplitter {
  private ScriptSplitter() {}

  enum Kind { SET, RESET, STATEMENT_SET, INSERT, OTHER }

  /** One statement: its text without the trailing semicolon, its 1-based first line, its kind. */
  record Statement(String sql, int line, Kind kind, List<String> inserts) {}

  private static final Pattern EXECUTE_SET_BEGIN =
      Pattern.compile("^EXECUTE\\s+STATEMENT\\s+SET\\s+BEGIN\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern BEGIN_SET =
      Pattern.compile("^BEGIN\\s+STATEMENT\\s+SET$", Pattern.CASE_INSENSITIVE);

  static List<Statement> split(String script) throws ScriptException {
    List<String[]> pieces = pieces(script);
    List<Statement> out = new ArrayList<>();
    for (int i = 0; i < pieces.size(); i++) {
      String sql = pieces.get(i)[0];
      int line = Integer.parseInt(pieces.get(i)[1]);
      String bare = stripComments(sql).trim();
      Matcher exec = EXECUTE_SET_BEGIN.matcher(bare);
      boolean execute = exec.find();
      if (execute || BEGIN_SET.matcher(bare).matches()) {
        List<String> inserts = new ArrayList<>();
        if (execute) {
          String first = bare.substring(exec.end()).trim();
          if (!first.isEmpty()) inserts.add(first);
        }
        boolean ended = false;
        while (++i < pieces.size()) {
          String inner = stripComments(pieces.get(i)[0]).trim();
          if (inner.equalsIgnoreCase("END")) {
            ended = true;
            break;
          }
          inserts.add(inner);
        }
        if (!ended) throw new ScriptException("line " + line + ": the statement set has no END");
        for (String insert : inserts)
          if (!insert.toUpperCase(Locale.ROOT).startsWith("INSERT"))
            throw new ScriptException(
                "line " + line + ": a statement set holds only INSERT statements, not: " + firstLine(insert));
        out.add(new Statement(bare, line, Kind.STATEMENT_SET, inserts));
        continue;
      }
      String head = bare.toUpperCase(Locale.ROOT);
      Kind kind =
          head.startsWith("SET ") || head.equals("SET") ? Kind.SET
              : head.startsWith("RESET") ? Kind.RESET
              : head.startsWith("INSERT") ? Kind.INSERT
              : Kind.OTHER;
      out.add(new Statement(bare, line, kind, List.of()));
    }
    return out;
  }

  static String firstLine(String sql) {
    String s = sql.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl) + " ...";
  }

  /** The statements' texts with their first lines, comments kept, empty pieces dropped. */
  private static List<String[]> pieces(String script) throws ScriptException {
    List<String[]> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int line = 1, startLine = -1;
    int n = script.length();
    for (int i = 0; i < n; i++) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        int end = script.indexOf('\n', i);
        if (end < 0) end = n;
        cur.append(script, i, end);
        i = end - 1;
        continue;
      }
      if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        if (end < 0) throw new ScriptException("line " + line + ": a /* comment is never closed");
        String comment = script.substring(i, end + 2);
        line += comment.chars().filter(ch -> ch == '\n').count();
        cur.append(comment);
        i = end + 1;
        continue;
      }
      if (c == '\'' || c == '`' || c == '"') {
        int j = i + 1;
        while (true) {
          if (j >= n) throw new ScriptException("line " + line + ": a " + c + " quote is never closed");
          if (script.charAt(j) == c) {
            if (j + 1 < n && script.charAt(j + 1) == c) { j += 2; continue; } // doubled quote
            break;
          }
          j++;
        }
        String quoted = script.substring(i, j + 1);
        if (startLine < 0) startLine = line;
        line += quoted.chars().filter(ch -> ch == '\n').count();
        cur.append(quoted);
        i = j;
        continue;
      }
      if (c == ';') {
        if (!stripComments(cur.toString()).isBlank()) out.add(new String[] {cur.toString(), String.valueOf(startLine)});
        cur.setLength(0);
        startLine = -1;
        continue;
      }
      if (c == '\n') line++;
      else if (startLine < 0 && !Character.isWhitespace(c)) startLine = line;
      cur.append(c);
    }
    if (!stripComments(cur.toString()).isBlank()) out.add(new String[] {cur.toString(), String.valueOf(startLine)});
    return out;
  }

  /** The text without -- and /* *&#47; comments (quotes respected), for classifying statements. */
  static String stripComments(String sql) {
    StringBuilder out = new StringBuilder();
    int n = sql.length();
    for (int i = 0; i < n; i++) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = (end < 0 ? n : end) - 1;
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = (end < 0 ? n : end + 2) - 1;
        out.append(' ');
        continue;
      }
      if (c == '\'' || c == '`' || c == '"') {
        int j = i + 1;
        while (j < n && !(sql.charAt(j) == c && (j + 1 >= n || sql.charAt(j + 1) != c))) j += sql.charAt(j) == c ? 2 : 1;
        out.append(sql, i, Math.min(j + 1, n));
        i = j;
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  static final class ScriptException extends Exception {
    ScriptException(String message) {
      super(message);
    }
  }
}
