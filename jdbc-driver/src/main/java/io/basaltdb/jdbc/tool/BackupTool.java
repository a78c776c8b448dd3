package io.basaltdb.jdbc.tool;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.backup.BackupCheck;
import io.basaltdb.engine.backup.BackupManifest;
import io.basaltdb.engine.backup.BackupRestore;
import io.basaltdb.storage.BackupReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Locale;

/**
 * {@code bin/basalt backup} and {@code bin/basalt restore} ({@code engine/doc/backup.md}):
 *
 * <pre>
 * bin/basalt backup --data DIR --to DEST [--incremental PREV] [--copy]   a database no process has open
 * bin/basalt backup --url URL --to DEST [--incremental PREV] [--copy]    BACKUP TO through the URL
 *                                                                         (a server writes DEST on its machine)
 * bin/basalt backup --verify DEST [--quick]     checks every file's CRC32C and reads every block
 * bin/basalt restore --from DEST --data DIR [--force]
 * </pre>
 *
 * Exit status: 0 done, 1 refused or failed (the message names the file), 2 usage.
 */
public final class BackupTool {
  private BackupTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** The options of both commands, as given. */
  private static final class Args {
    String data;
    String url;
    String to;
    String from;
    String previous;
    String verify;
    boolean copy;
    boolean quick;
    boolean force;
  }

  static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("-h")) {
      usage(argv.length == 0 ? err : out);
      return argv.length == 0 ? 2 : 0;
    }
    String command = argv[0];
    Args a = new Args();
    for (int i = 1; i < argv.length; i++) {
      String o = argv[i];
      if (o.equals("--copy") || o.equals("--quick") || o.equals("--force")) {
        a.copy |= o.equals("--copy");
        a.quick |= o.equals("--quick");
        a.force |= o.equals("--force");
        continue;
      }
      if (!o.startsWith("--") || i + 1 >= argv.length) {
        err.println("basalt " + command + ": " + (o.startsWith("--") ? o + " needs a value"
            : "unexpected argument " + o));
        usage(err);
        return 2;
      }
      String v = argv[++i];
      switch (o) {
        case "--data" -> a.data = v;
        case "--url" -> a.url = v;
        case "--to" -> a.to = v;
        case "--from" -> a.from = v;
        case "--incremental" -> a.previous = v;
        case "--verify" -> a.verify = v;
        default -> {
          err.println("basalt " + command + ": unknown option " + o);
          usage(err);
          return 2;
        }
      }
    }
    try {
      if (command.equals("backup") && a.verify != null) {
        return verify(Path.of(a.verify), !a.quick, out);
      }
      if (command.equals("backup") && a.to != null && (a.data == null) != (a.url == null)) {
        return a.url != null ? backupThrough(a, out) : backup(a, out);
      }
      if (command.equals("restore") && a.from != null && a.data != null) {
        return restore(a, out);
      }
    } catch (RuntimeException | SQLException e) {
      err.println("basalt " + command + ": " + e.getMessage());
      return 1;
    }
    usage(err);
    return 2;
  }

  private static int backup(Args a, PrintStream out) {
    Path dir = Path.of(a.data);
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("no database at " + dir.toAbsolutePath());
    }
    Database opened;
    try {
      opened = Database.open(dir, EngineOptions.defaults());
    } catch (io.basaltdb.storage.InvalidArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + "; to back up a database a process"
          + " holds (a server), ask that process: bin/basalt backup --url URL --to DEST", e);
    }
    try (Database db = opened) {
      BackupReport r = db.backup(Path.of(a.to), a.previous == null ? null
          : Path.of(a.previous), a.copy);
      out.printf(Locale.ROOT, "backup of %s at cut %d: %d files, %d bytes (%d hard-linked, %d"
          + " reused from the previous backup, %d copied: %d bytes) in %d ms; writers held"
          + " %.1f ms%n", dir, r.cutSequence(), r.files(), r.bytes(), r.linked(), r.reused(),
          r.copied(), r.copiedBytes(), r.millis(), r.writesHeldMicros() / 1000.0);
      out.println("written to " + a.to);
    }
    return 0;
  }

  /** BACKUP TO through a URL: the database, embedded or a server, writes {@code --to}. */
  private static int backupThrough(Args a, PrintStream out) throws SQLException {
    String sql = "BACKUP TO " + quote(a.to)
        + (a.previous == null ? "" : " INCREMENTAL FROM " + quote(a.previous))
        + (a.copy ? " WITHOUT LINKS" : "");
    try (Connection c = DriverManager.getConnection(a.url); Statement s = c.createStatement()) {
      s.execute(sql);
    }
    out.println("backup of " + a.url + " written to " + a.to
        + " (on the machine of the database it names)");
    return 0;
  }

  private static int verify(Path dest, boolean deep, PrintStream out) {
    BackupCheck.Report r = BackupCheck.verify(dest, deep);
    BackupManifest m = r.manifest();
    out.printf(Locale.ROOT, "backup %s: cut %d, taken %s from %s%n", dest, m.cutSequence(),
        Instant.ofEpochMilli(m.createdMillis()), m.source());
    out.printf(Locale.ROOT, "%d files, %d bytes: every size and CRC32C matches%s%n", r.files(),
        r.bytes(), deep ? "; every block read back (" + r.cells() + " cells)" : "");
    return 0;
  }

  private static int restore(Args a, PrintStream out) {
    Path dir = Path.of(a.data);
    BackupRestore.Report r = BackupRestore.restore(Path.of(a.from), dir,
        a.force, p -> Database.open(p, EngineOptions.defaults()).close());
    out.printf(Locale.ROOT, "restored %s (cut %d) into %s: %d files, %d bytes%n", a.from,
        r.manifest().cutSequence(), dir, r.files(), r.bytes());
    if (r.movedAside() != null) {
      out.println("the database that was there is now in " + r.movedAside());
    }
    return 0;
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  private static void usage(PrintStream out) {
    out.println("usage: basalt backup --data DIR --to DEST [--incremental PREV] [--copy]");
    out.println("       basalt backup --url URL --to DEST [--incremental PREV] [--copy]");
    out.println("       basalt backup --verify DEST [--quick]");
    out.println("       basalt restore --from DEST --data DIR [--force]");
  }
}
