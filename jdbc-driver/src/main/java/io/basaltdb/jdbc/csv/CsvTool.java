package io.basaltdb.jdbc.csv;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bin/basalt load} and {@code bin/basalt export}: CSV files into a table and a query's
 * rows into a CSV file, through the JDBC driver (any Basalt URL, embedded by default).
 *
 * <pre>
 * bin/basalt load TABLE FILE [--url U] [--columns A,B,..] [--no-header] [--delimiter C]
 *     [--quote C] [--null TEXT] [--date-format P] [--timestamp-format P] [--insert]
 *     [--errors N] [--rejects FILE] [--parallel N]
 * bin/basalt export "SELECT ..." --to FILE [--url U] [--delimiter C] [--quote C] [--null TEXT]
 *     [--no-header]
 * </pre>
 *
 * Exit status 0 when done, 1 when the load stopped or failed (the rows loaded before are
 * reported), 2 on a usage error.
 */
public final class CsvTool {
  static final String DEFAULT_URL = "jdbc:basalt:./basalt-data";

  private CsvTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Options common to both commands, then each command's own. */
  private static final class Args {
    String url = DEFAULT_URL;
    char delimiter = ',';
    char quote = '"';
    String nullMarker = "";
    boolean header = true;
    List<String> columns = List.of();
    String datePattern;
    String timestampPattern;
    boolean insert;
    long errors;
    long parallel = 1;
    Path rejects;
    Path to;
    final List<String> positional = new ArrayList<>();
  }

  static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("-h")) {
      usage(argv.length == 0 ? err : out);
      return argv.length == 0 ? 2 : 0;
    }
    String command = argv[0];
    Args a;
    try {
      a = parse(Arrays.copyOfRange(argv, 1, argv.length));
    } catch (IllegalArgumentException e) {
      err.println("basalt " + command + ": " + e.getMessage());
      return 2;
    }
    try {
      return switch (command) {
        case "load" -> load(a, out, err);
        case "export" -> export(a, out, err);
        default -> {
          err.println("basalt: unknown CSV command '" + command + "'");
          yield 2;
        }
      };
    } catch (IllegalArgumentException e) {
      err.println("basalt " + command + ": " + e.getMessage());
      return 2;
    } catch (SQLException e) {
      err.println("basalt " + command + ": " + e.getMessage() + (e.getSQLState() == null ? ""
          : " [SQLState " + e.getSQLState() + "]"));
      return 1;
    } catch (IOException e) {
      err.println("basalt " + command + ": " + e);
      return 1;
    }
  }

  private static int load(Args a, PrintStream out, PrintStream err)
      throws SQLException, IOException {
    if (a.positional.size() != 2) {
      throw new IllegalArgumentException("usage: basalt load TABLE FILE [options]");
    }
    String table = a.positional.get(0);
    Path file = Path.of(a.positional.get(1));
    Path rejects = a.rejects != null ? a.rejects : Path.of(file + ".rejects");
    CsvOptions options = new CsvOptions(a.delimiter, a.quote, a.nullMarker, a.header,
        a.columns);
    long started = System.nanoTime();
    List<Connection> more = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(a.url);
        BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        LazyWriter rejected = new LazyWriter(rejects)) {
      if (a.parallel > 1) {
        for (long i = 0; i < a.parallel; i++) {
          more.add(DriverManager.getConnection(a.url));
        }
      }
      CsvLoad.Outcome o;
      try {
        o = new CsvLoad(c, table, options, a.datePattern, a.timestampPattern, a.insert,
            a.errors, rejected, System.console() != null ? err : null).parallel(more).load(in);
      } catch (CsvLoad.Stopped s) {
        err.println("basalt load: stopped at " + s.getMessage());
        return 1;
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      out.printf("loaded %,d rows into %s in %.1f s (%,.0f rows/s)%s%n", o.loaded(), table,
          seconds, o.loaded() / seconds, o.rejected() == 0 ? ""
              : "; " + o.rejected() + " records rejected, written to " + rejects);
      return 0;
    } finally {
      for (Connection m : more) {
        m.close();
      }
    }
  }

  private static int export(Args a, PrintStream out, PrintStream err)
      throws SQLException, IOException {
    if (a.positional.size() != 1 || a.to == null) {
      throw new IllegalArgumentException("usage: basalt export \"SELECT ...\" --to FILE");
    }
    CsvOptions options = new CsvOptions(a.delimiter, a.quote, a.nullMarker, a.header,
        List.of());
    try (Connection c = DriverManager.getConnection(a.url);
        BufferedWriter w = Files.newBufferedWriter(a.to, StandardCharsets.UTF_8)) {
      long rows = CsvExport.export(c, a.positional.get(0), w, options);
      out.printf("exported %,d rows to %s%n", rows, a.to);
      return 0;
    }
  }

  private static Args parse(String[] argv) {
    Args a = new Args();
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      if (!arg.startsWith("--")) {
        a.positional.add(arg);
        continue;
      }
      switch (arg) {
        case "--header" -> a.header = true; // the default, said explicitly
        case "--no-header" -> a.header = false;
        case "--insert" -> a.insert = true;
        default -> {
          if (i + 1 >= argv.length) {
            throw new IllegalArgumentException(arg + " needs a value");
          }
          String v = argv[++i];
          switch (arg) {
            case "--url" -> a.url = v;
            case "--delimiter" -> a.delimiter = oneChar(arg, v);
            case "--quote" -> a.quote = oneChar(arg, v);
            case "--null" -> a.nullMarker = v;
            case "--columns" -> a.columns = List.of(v.split(","));
            case "--date-format" -> a.datePattern = v;
            case "--timestamp-format" -> a.timestampPattern = v;
            case "--errors" -> a.errors = count(arg, v);
            case "--rejects" -> a.rejects = Path.of(v);
            case "--parallel" -> {
              a.parallel = count(arg, v);
              if (a.parallel < 1 || a.parallel > 64) {
                throw new IllegalArgumentException("--parallel takes 1 to 64 writers, not " + v);
              }
            }
            case "--to" -> a.to = Path.of(v);
            default -> throw new IllegalArgumentException("unknown option " + arg);
          }
        }
      }
    }
    return a;
  }

  private static char oneChar(String option, String v) {
    String s = v.equals("\\t") || v.equalsIgnoreCase("tab") ? "\t" : v;
    if (s.length() != 1) {
      throw new IllegalArgumentException(option + " takes one character, not '" + v + "'");
    }
    return s.charAt(0);
  }

  private static long count(String option, String v) {
    try {
      long n = Long.parseLong(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(option + " takes a count of 0 or more, not '" + v + "'");
  }

  private static void usage(PrintStream s) {
    s.println("usage: basalt load TABLE FILE [--url U] [--columns A,B,..] [--no-header]"
        + " [--delimiter C] [--quote C] [--null TEXT] [--date-format P] [--timestamp-format P]"
        + " [--insert] [--errors N] [--rejects FILE] [--parallel N]");
    s.println("       basalt export \"SELECT ...\" --to FILE [--url U] [--delimiter C]"
        + " [--quote C] [--null TEXT] [--no-header]");
  }

  /** A file writer that creates its file only when first written to. */
  private static final class LazyWriter extends Writer {
    private final Path path;
    private Writer w;

    LazyWriter(Path path) {
      this.path = path;
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
      if (w == null) {
        w = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
      }
      w.write(buf, off, len);
    }

    @Override
    public void flush() throws IOException {
      if (w != null) {
        w.flush();
      }
    }

    @Override
    public void close() throws IOException {
      if (w != null) {
        w.close();
      }
    }
  }
}
