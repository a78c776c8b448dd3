package io.basaltdb.jdbc.csv;

import io.basaltdb.jdbc.csv.CsvLoad.Line;
import io.basaltdb.jdbc.csv.CsvLoad.Refusal;
import io.basaltdb.jdbc.csv.CsvLoad.StopAt;
import io.basaltdb.jdbc.csv.CsvLoad.Target;
import io.basaltdb.sql.SqlStates;
import java.io.IOException;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the records of a load through one connection: binds each to the load's statement
 * (a field that is no value of its column is refused here), sends them {@link CsvLoad#BATCH}
 * at a time, and when the database refuses part of a batch writes the rows it did not
 * acknowledge again one by one, so each refused row gets its own error. A refused record is
 * rejected while the load allows ({@link CsvLoad#reject}), else a {@link StopAt} ends the
 * sending: the rows after it are not written. Used by one thread.
 */
final class CsvSender implements AutoCloseable {
  private final CsvLoad load;
  private final Target target;
  private final PreparedStatement ps;
  private final List<Line> batch = new ArrayList<>(CsvLoad.BATCH);

  CsvSender(CsvLoad load, Connection connection, Target target) throws SQLException {
    this.load = load;
    this.target = target;
    this.ps = connection.prepareStatement(target.sql());
  }

  /** Adds a record; sends the batch when it is full. */
  void add(Line l) throws SQLException, IOException, StopAt {
    Refusal refused = bind(l);
    if (refused == null) {
      ps.addBatch();
      batch.add(l);
      if (batch.size() == CsvLoad.BATCH) {
        flush();
      }
    } else {
      flush(); // the rows before it first: loaded, or refused in order
      if (!load.reject(refused)) {
        throw new StopAt(refused, 0);
      }
    }
  }

  /** Binds record {@code l}: null, or why it was refused. */
  private Refusal bind(Line l) throws SQLException {
    if (l.fields().size() != target.types().length) {
      return new Refusal(l, null, null, new SQLException("the record has " + l.fields().size()
          + " fields where " + target.types().length + " columns were named",
          SqlStates.INVALID_PARAMETER_VALUE));
    }
    for (int i = 0; i < target.types().length; i++) {
      try {
        load.values.bind(ps, i + 1, target.types()[i], target.columns().get(i),
            l.fields().get(i));
      } catch (SQLException e) {
        ps.clearParameters();
        return new Refusal(l, target.columns().get(i), l.fields().get(i), e);
      }
    }
    return null;
  }

  /** Sends the rows held, if any. */
  void flush() throws SQLException, IOException, StopAt {
    if (batch.isEmpty()) {
      return;
    }
    try {
      load.loaded(ps.executeBatch().length);
    } catch (BatchUpdateException e) {
      ps.clearBatch();
      int[] counts = e.getUpdateCounts() == null ? new int[0] : e.getUpdateCounts();
      int written = 0; // some may come after a refused row (a batch over HBase tries every row)
      for (int count : counts) {
        written += count == Statement.EXECUTE_FAILED ? 0 : 1;
      }
      load.loaded(written);
      for (int k = 0; k < batch.size(); k++) {
        Line l = batch.get(k);
        if (k < counts.length && counts[k] != Statement.EXECUTE_FAILED) {
          written--; // counted above: written is now how many rows after it the batch wrote
          continue;
        }
        Refusal refused = bind(l);
        if (refused == null) {
          try {
            ps.executeUpdate();
            load.loaded(1);
          } catch (SQLException one) {
            refused = new Refusal(l, null, null, one);
          }
        }
        if (refused != null && !load.reject(refused)) {
          batch.clear();
          throw new StopAt(refused, written); // the rows after it are not written
        }
      }
    }
    batch.clear();
  }

  @Override
  public void close() throws SQLException {
    ps.close();
  }
}
