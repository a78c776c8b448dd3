package io.basaltdb.jdbc.tool;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.RegionStats;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The admin subcommands of {@code bin/basalt}, on a database directory no other process has
 * open, or on the storage of a Basalt URL ({@code --url jdbc:basalt:hbase:...}):
 * {@code regions}, {@code flush}, {@code compact [--major]} and {@code stats} of a table
 * named as in SQL ({@code T} in the default schema, or {@code SCHEMA.T}), {@code stats}
 * without a table (the database's metrics, {@link DatabaseStatsTool}), and
 * {@code verify-index}, which checks a secondary index against its table both ways (exit
 * status 1 when they differ); over HBase it also settles the entries a client left unverified
 * ({@code --repair}: fencing their rows, see IndexVerifier).
 *
 * <pre>
 * bin/basalt regions|flush|compact|stats TABLE [--data DIR] [--major]
 * bin/basalt admin verify-index TABLE INDEX [--data DIR | --url URL] [--repair]
 * </pre>
 */
public final class AdminTool {
  private AdminTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one subcommand; the exit status (0 ok, 1 failure, 2 usage). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      usage(args.length == 0 ? err : out);
      return args.length == 0 ? 2 : 0;
    }
    String command = args[0];
    String table = null;
    String index = null;
    Path dir = Path.of("basalt-data");
    String url = null;
    boolean major = false;
    boolean repair = false;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--data" -> {
          if (++i >= args.length) {
            err.println("basalt " + command + ": --data needs a directory");
            return 2;
          }
          dir = Path.of(args[i]);
        }
        case "--url" -> {
          if (++i >= args.length) {
            err.println("basalt " + command + ": --url needs a Basalt JDBC URL");
            return 2;
          }
          url = args[i];
        }
        case "--major" -> major = true;
        case "--repair" -> repair = true;
        case "--help", "-h" -> {
          usage(out);
          return 0;
        }
        default -> {
          boolean second = table != null && command.equals("verify-index") && index == null;
          if ((table != null && !second) || args[i].startsWith("-")) {
            err.println("basalt " + command + ": unexpected argument " + args[i]);
            usage(err);
            return 2;
          }
          if (second) {
            index = args[i];
          } else {
            table = args[i];
          }
        }
      }
    }
    if (command.equals("stats") && table == null) {
      return DatabaseStatsTool.print(url, dir, out, err);
    }
    if (!List.of("regions", "flush", "compact", "stats", "verify-index").contains(command)
        || table == null || (command.equals("verify-index") && index == null)) {
      usage(err);
      return 2;
    }
    if (url == null && !Files.isDirectory(dir)) {
      err.println("basalt " + command + ": no database at " + dir.toAbsolutePath());
      return 1;
    }
    TableName name = sqlName(table);
    try (Opened opened = open(url, dir)) {
      Storage db = opened.storage();
      if (!db.admin().tableExists(name)) {
        err.println("basalt " + command + ": no table " + table + " (engine table " + name + ")");
        return 1;
      }
      switch (command) {
        case "verify-index" -> {
          return verifyIndex(db, name, index, repair, out, err);
        }
        case "flush" -> {
          db.admin().flush(name);
          out.println("flushed " + table);
        }
        case "compact" -> {
          if (major) {
            db.admin().majorCompact(name);
          } else {
            db.admin().compact(name);
          }
          out.println((major ? "major-compacted " : "compacted ") + table);
        }
        case "regions" -> {
          for (RegionInfo r : db.admin().regions(name)) {
            out.printf(Locale.ROOT, "%s  [%s, %s)  %d files, %d bytes on disk, %d in memory%n",
                r.name(), Cell.printable(r.startRow()), Cell.printable(r.endRow()),
                r.stats().fileCount(), r.stats().fileBytes(), r.stats().memstoreBytes());
          }
        }
        default -> stats(db, name, table, out);
      }
      return 0;
    } catch (RuntimeException | java.sql.SQLException e) {
      err.println("basalt " + command + ": " + e.getMessage());
      return 1;
    }
  }

  /** The storage a command works on, and what to close after it. */
  private record Opened(Storage storage, AutoCloseable owner) implements AutoCloseable {
    @Override
    public void close() throws java.sql.SQLException {
      try {
        owner.close();
      } catch (java.sql.SQLException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The storage of a Basalt URL (through the driver), else the database in {@code dir}. */
  private static Opened open(String url, Path dir) throws java.sql.SQLException {
    if (url == null) {
      Database db = Database.open(dir, EngineOptions.defaults());
      return new Opened(db, db);
    }
    java.sql.Connection c = java.sql.DriverManager.getConnection(url);
    return new Opened(c.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage(), c);
  }

  /** Checks index {@code index} of table {@code name}: 0 when it matches its table, else 1. */
  private static int verifyIndex(Storage db, TableName name, String index, boolean repair,
      PrintStream out, PrintStream err) {
    io.basaltdb.sql.catalog.SqlCatalog catalog = new io.basaltdb.sql.catalog.SqlCatalog(db);
    io.basaltdb.sql.catalog.SqlTableDef def = catalog.get(name);
    io.basaltdb.sql.catalog.SqlIndexDef found = def == null ? null : catalog.indexes(name).stream()
        .filter(i -> i.name().equals(index)).findFirst().orElse(null);
    if (found == null) {
      err.println("basalt verify-index: table " + name + " has no index " + index);
      return 1;
    }
    var report = io.basaltdb.sql.index.IndexVerifier.verify(db, def, found, repair);
    out.println("index " + index + " of " + name + " (" + found.state() + "): " + report);
    out.println(report.consistent() ? "consistent" : "DIFFERENCES FOUND");
    return report.consistent() ? 0 : 1;
  }

  private static void stats(Storage db, TableName name, String table, PrintStream out) {
    long files = 0;
    long bytes = 0;
    long memory = 0;
    long cells = 0;
    long reads = 0;
    long writes = 0;
    List<RegionInfo> regions = db.admin().regions(name);
    for (RegionInfo r : regions) {
      RegionStats s = r.stats();
      files += s.fileCount();
      bytes += s.fileBytes();
      memory += s.memstoreBytes();
      cells += s.cellCount();
      reads += s.reads();
      writes += s.writes();
    }
    out.println("table " + table + " (engine table " + name + ")");
    out.println("  regions        " + regions.size());
    out.println("  files          " + files + " (" + bytes + " bytes)");
    out.println("  memstores      " + memory + " bytes");
    out.println("  cells          " + cells + " (versions and tombstones included)");
    out.println("  reads, writes  " + reads + ", " + writes + " since opened");
    out.println("  families       " + db.admin().describe(name).families().keySet());
  }

  /** {@code T} is {@code default:T}; {@code S.T} is {@code S:T} (DEFAULT.T is default:T). */
  static TableName sqlName(String table) {
    int dot = table.indexOf('.');
    if (dot < 0) {
      return TableName.of(table);
    }
    String schema = table.substring(0, dot);
    String t = table.substring(dot + 1);
    return schema.equals("DEFAULT") ? TableName.of(t) : new TableName(schema, t);
  }

  private static void usage(PrintStream out) {
    out.println("usage: basalt regions|flush|compact|stats TABLE [--data DIR | --url URL]"
        + " [--major]");
    out.println("       basalt stats [--data DIR | --url URL]   the database's metrics"
        + " (jdbc-driver/doc/metrics.md)");
    out.println("       basalt admin verify-index TABLE INDEX [--data DIR | --url URL] [--repair]");
    out.println("  TABLE as SQL names it (upper case unless quoted): PAGES or WEB.PAGES");
    out.println("  --data   the database directory (default ./basalt-data); no other process");
    out.println("           may have it open (stop the server first)");
    out.println("  --url    a Basalt JDBC URL instead, such as jdbc:basalt:hbase:<quorum>:<port>");
    out.println("  --major  with compact: a major compaction (drops deleted and expired cells)");
  }
}
