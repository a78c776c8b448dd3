package io.basaltdb.jdbc.csv;

import io.basaltdb.sql.SqlStates;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.Writer;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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

  private final Connection connection;
  private final String table;
  private final CsvOptions options;
  private final CsvValues values;
  private final boolean insert;
  private final long maxErrors;
  private final Writer rejects;
  private final PrintStream progress;
  private CSVPrinter rejectPrinter;
  private long loaded;
  /** Of {@link #loaded}, the rows after the record being refused that its batch wrote. */
  private long writtenAfter;
  private long rejected;
  private long lastProgress;
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

  /** One record to write: its fields and the line it starts on. */
  private record Line(long number, List<String> fields) {}

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
      try (PreparedStatement ps = connection.prepareStatement(target.sql())) {
        List<Line> batch = new ArrayList<>(BATCH);
        long line = parser.getCurrentLineNumber() + 1;
        while (records.hasNext()) {
          CSVRecord r = records.next();
          List<String> fields = r.toList();
          Line l = new Line(line, fields);
          line = parser.getCurrentLineNumber() + 1;
          Refusal refused = bind(ps, target, l);
          if (refused == null) {
            ps.addBatch();
            batch.add(l);
            if (batch.size() == BATCH) {
              flush(ps, target, batch);
            }
          } else {
            flush(ps, target, batch); // the rows before it first: loaded, or refused in order
            if (!reject(refused)) {
              writtenAfter = 0;
              throw stopped(refused);
            }
          }
        }
        flush(ps, target, batch);
      }
    } finally {
      if (rejectPrinter != null) {
        rejectPrinter.flush();
      }
      if (progress != null && lastProgress != 0) {
        progress.println();
      }
    }
    return new Outcome(loaded, rejected);
  }

  /** The statement of the load and its columns' SQL types. */
  private record Target(String sql, List<String> columns, int[] types) {}

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

  /** A record refused: where, and why. */
  private record Refusal(Line line, String column, String text, SQLException error) {}

  /** Binds record {@code l}: null, or why it was refused. */
  private Refusal bind(PreparedStatement ps, Target t, Line l) throws SQLException {
    if (l.fields().size() != t.types().length) {
      return new Refusal(l, null, null, new SQLException("the record has " + l.fields().size()
          + " fields where " + t.types().length + " columns were named",
          SqlStates.INVALID_PARAMETER_VALUE));
    }
    for (int i = 0; i < t.types().length; i++) {
      try {
        values.bind(ps, i + 1, t.types()[i], t.columns().get(i), l.fields().get(i));
      } catch (SQLException e) {
        ps.clearParameters();
        return new Refusal(l, t.columns().get(i), l.fields().get(i), e);
      }
    }
    return null;
  }

  /**
   * Sends the rows of {@code batch}; when the database refuses one, the rows it did not
   * acknowledge are written again one by one, so each refused row gets its own error.
   */
  private void flush(PreparedStatement ps, Target t, List<Line> batch)
      throws SQLException, IOException {
    if (batch.isEmpty()) {
      return;
    }
    try {
      loaded += ps.executeBatch().length;
    } catch (BatchUpdateException e) {
      ps.clearBatch();
      int[] counts = e.getUpdateCounts() == null ? new int[0] : e.getUpdateCounts();
      int written = 0; // some may come after a refused row (a batch over HBase tries every row)
      for (int count : counts) {
        written += count == Statement.EXECUTE_FAILED ? 0 : 1;
      }
      loaded += written;
      for (int k = 0; k < batch.size(); k++) {
        Line l = batch.get(k);
        if (k < counts.length && counts[k] != Statement.EXECUTE_FAILED) {
          written--; // counted above: written is now how many rows after it the batch wrote
          continue;
        }
        writtenAfter = written;
        Refusal refused = bind(ps, t, l);
        if (refused == null) {
          try {
            ps.executeUpdate();
            loaded++;
          } catch (SQLException one) {
            refused = new Refusal(l, null, null, one);
          }
        }
        if (refused != null && !reject(refused)) {
          throw stopped(refused); // the rows after it are not written
        }
      }
    }
    batch.clear();
    showProgress();
  }

  /**
   * Skips a refused record, written to the rejects file, while fewer than {@code maxErrors}
   * were; false when the load must stop at it instead.
   */
  private boolean reject(Refusal r) throws IOException {
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

  private Stopped stopped(Refusal r) {
    return new Stopped(table + ": " + where(r) + ": " + r.error().getMessage() + " (SQLState "
        + r.error().getSQLState() + "); " + loaded + " rows loaded" + (writtenAfter == 0
        ? " before it" : ", " + writtenAfter + " of them after it (its batch went on past it)")
        + (rejected > 0 ? ", " + rejected + " rejected" : ""), r.error(), loaded);
  }

  private static String where(Refusal r) {
    return "line " + r.line().number() + (r.column() == null ? "" : ", column " + r.column())
        + (r.text() == null ? "" : ", value '" + r.text() + "'");
  }

  private void showProgress() {
    long now = System.nanoTime();
    if (progress == null || now - lastProgress < 500_000_000L) {
      return;
    }
    lastProgress = now;
    double seconds = (now - started) / 1e9;
    progress.printf("\rloaded %,d rows (%,.0f rows/s)%s", loaded, loaded / seconds,
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
