package io.basaltdb.jdbc.csv;

import io.basaltdb.sql.SqlStates;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.Writer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Loads a CSV file into a table through JDBC, {@value #BATCH} rows per batch: each record an
 * UPSERT (or an INSERT, refusing a stored key with 23505) of the file's columns, named by its
 * header row or given. A field that is not a value of its column's type, or that the database
 * refuses (out of range, too long, a duplicate key), stops the load with its line, column (when
 * known), text and SQLState, the rows before it loaded and counted exactly ({@link Stopped});
 * with {@code maxErrors} N, up to N refused records are skipped instead and written to a
 * rejects file (as they were, plus their line and error), and the N+1st stops the load.
 *
 * <p>With more connections ({@link #parallel}), this thread only parses the file: batches of
 * records go to one sender per connection ({@link CsvSender}), each binding and writing its own.
 * A refusal then stops the load once the batches being written are done: the rows loaded are
 * still counted exactly, but rows of other batches, after the refused line too, may be among
 * them (the message says so).
 *
 * <p>Invariant: {@code loaded} counts the rows the database acknowledged, no more: a batch the
 * database refused part of is run again row by row from its first unacknowledged row.
 */
public final class CsvLoad {
  /** Rows sent in one JDBC batch. */
  static final int BATCH = 1000;

  /** What a load did. */
  public record Outcome(long loaded, long rejected) {}

  /** A load stopped at a refused record: where, and how many rows were loaded before it. */
  public static final class Stopped extends SQLException {
    private static final long serialVersionUID = 1L;
    private final long loaded;

    Stopped(String message, SQLException cause, long loaded) {
      super(message, cause.getSQLState(), cause);
      this.loaded = loaded;
    }

    /** The rows loaded before the load stopped. */
    public long loaded() {
      return loaded;
    }
  }

  /** One record to write: its fields and the line it starts on. */
  record Line(long number, List<String> fields) {}

  /** The statement of the load and its columns' SQL types. */
  record Target(String sql, List<String> columns, int[] types) {}

  /** A record refused: where, and why. */
  record Refusal(Line line, String column, String text, SQLException error) {}

  /** A sender met a refusal the load stops at; {@code writtenAfter}: rows its batch wrote after it. */
  static final class StopAt extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Refusal refusal;
    final long writtenAfter;

    StopAt(Refusal refusal, long writtenAfter) {
      super(null, null, false, false);
      this.refusal = refusal;
      this.writtenAfter = writtenAfter;
    }
  }

  private final Connection connection;
  private final String table;
  private final CsvOptions options;
  final CsvValues values;
  private final boolean insert;
  private final long maxErrors;
  private final Writer rejects;
  private final PrintStream progress;
  private List<Connection> others = List.of();
  private CSVPrinter rejectPrinter;
  private final AtomicLong loaded = new AtomicLong();
  private long rejected; // guarded by this
  private long lastProgress; // guarded by this
  private long started;

  /**
   * {@code rejects}: where refused records go (null when {@code maxErrors} is 0); {@code
   * progress}: where a progress line is drawn, or null.
   */
  public CsvLoad(Connection connection, String table, CsvOptions options, String datePattern,
      String timestampPattern, boolean insert, long maxErrors, Writer rejects,
      PrintStream progress) {
    this.connection = connection;
    this.table = table;
    this.options = options;
    this.values = new CsvValues(datePattern, timestampPattern);
    this.insert = insert;
    this.maxErrors = maxErrors;
    this.rejects = rejects;
    this.progress = progress;
  }

  /** This load writing through {@code more} connections too, one sender each, in parallel. */
  public CsvLoad parallel(List<Connection> more) {
    this.others = List.copyOf(more);
    return this;
  }

  /** Loads every record of {@code in} (UTF-8 text; a leading byte order mark is skipped). */
  public Outcome load(Reader in) throws SQLException, IOException {
    started = System.nanoTime();
    try (CSVParser parser = CSVParser.builder().setReader(withoutBom(in))
        .setFormat(options.format()).get()) {
      java.util.Iterator<CSVRecord> records = parser.iterator();
      List<String> names = options.columns();
      if (options.header()) {
        if (!records.hasNext()) {
          return new Outcome(0, 0);
        }
        List<String> header = records.next().toList();
        if (names.isEmpty()) {
          names = header;
        }
      }
      if (names.isEmpty()) {
        throw new SQLException("no columns: the file has no header row and none were given",
            SqlStates.UNDEFINED_COLUMN);
      }
      Target target = target(names);
      if (others.isEmpty()) {
        loadSerially(parser, records, target);
      } else {
        new CsvParallel(this, target, others).run(parser, records);
      }
    } finally {
      synchronized (this) {
        if (rejectPrinter != null) {
          rejectPrinter.flush();
        }
        if (progress != null && lastProgress != 0) {
          progress.println();
        }
      }
    }
    return new Outcome(loaded.get(), rejected());
  }

  private void loadSerially(CSVParser parser, java.util.Iterator<CSVRecord> records,
      Target target) throws SQLException, IOException {
    try (CsvSender sender = new CsvSender(this, connection, target)) {
      long line = nextLine(parser);
      while (records.hasNext()) {
        Line l = new Line(line, records.next().toList());
        line = nextLine(parser);
        sender.add(l);
      }
      sender.flush();
    } catch (StopAt s) {
      throw stopped(s.refusal, s.writtenAfter, false);
    }
  }

  /** The line number the parser's next record starts on. */
  static long nextLine(CSVParser parser) {
    return parser.getCurrentLineNumber() + 1;
  }

  private Target target(List<String> names) throws SQLException {
    List<String> columns = new ArrayList<>();
    for (String n : names) {
      columns.add(n.matches("[A-Za-z_][A-Za-z0-9_]*") ? n : '"' + n.replace("\"", "\"\"") + '"');
    }
    String list = String.join(", ", columns);
    int[] types = new int[columns.size()];
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT " + list + " FROM " + table + " WHERE 1 = 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 0; i < types.length; i++) {
        types[i] = md.getColumnType(i + 1);
      }
    }
    String sql = (insert ? "INSERT" : "UPSERT") + " INTO " + table + " (" + list + ") VALUES ("
        + "?, ".repeat(types.length - 1) + "?)";
    return new Target(sql, names, types);
  }

  /** Rows acknowledged by the database: counted as each batch returns. */
  void loaded(long rows) {
    loaded.addAndGet(rows);
    showProgress();
  }

  long loadedSoFar() {
    return loaded.get();
  }

  synchronized long rejected() {
    return rejected;
  }

  /**
   * Skips a refused record, written to the rejects file, while fewer than {@code maxErrors}
   * were; false when the load must stop at it instead.
   */
  synchronized boolean reject(Refusal r) throws IOException {
    if (rejected >= maxErrors) {
      return false;
    }
    rejected++;
    if (rejectPrinter == null) {
      rejectPrinter = new CSVPrinter(rejects, options.format());
    }
    List<String> out = new ArrayList<>(r.line().fields());
    out.add("line " + r.line().number());
    out.add(where(r) + ": " + r.error().getMessage() + " (SQLState " + r.error().getSQLState()
        + ")");
    rejectPrinter.printRecord(out);
    return true;
  }

  /** The load's end at refusal {@code r}; {@code parallel}: other batches may have gone on. */
  Stopped stopped(Refusal r, long writtenAfter, boolean parallel) {
    long n = loaded.get();
    long rej = rejected();
    return new Stopped(table + ": " + where(r) + ": " + r.error().getMessage() + " (SQLState "
        + r.error().getSQLState() + "); " + n + " rows loaded" + (parallel
        ? " (a parallel load: rows of other batches, after this line too, may be among them)"
        : writtenAfter == 0 ? " before it"
        : ", " + writtenAfter + " of them after it (its batch went on past it)")
        + (rej > 0 ? ", " + rej + " rejected" : ""), r.error(), n);
  }

  private static String where(Refusal r) {
    return "line " + r.line().number() + (r.column() == null ? "" : ", column " + r.column())
        + (r.text() == null ? "" : ", value '" + r.text() + "'");
  }

  private synchronized void showProgress() {
    long now = System.nanoTime();
    if (progress == null || now - lastProgress < 500_000_000L) {
      return;
    }
    lastProgress = now;
    double seconds = (now - started) / 1e9;
    long n = loaded.get();
    progress.printf("\rloaded %,d rows (%,.0f rows/s)%s", n, n / seconds,
        rejected > 0 ? ", " + rejected + " rejected" : "");
    progress.flush();
  }

  private static Reader withoutBom(Reader in) throws IOException {
    PushbackReader r = new PushbackReader(in, 1);
    int first = r.read();
    if (first != -1 && first != '\uFEFF') {
      r.unread(first);
    }
    return r;
  }
}
