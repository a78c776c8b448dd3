package io.basaltdb.hbase;

import io.basaltdb.storage.BasaltException;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.StorageUnavailableException;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.exceptions.TimeoutIOException;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;

/**
 * HBase's failures as the engine's exception types, which the SQL layer maps to SQLStates: a
 * missing table or namespace 42P01, a disabled table 55000, a refused request (bad family,
 * sanity check) 22023, an unreachable or timed-out cluster 08006, any other I/O failure 58030.
 * Each message names the operation and the table.
 */
final class HBaseErrors {
  private HBaseErrors() {}

  static BasaltException translate(String what, TableName table, IOException e) {
    String on = what + (table == null ? "" : " of " + table);
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof org.apache.hadoop.hbase.TableNotFoundException) {
        return new TableNotFoundException((table == null ? "table" : "table " + table)
            + " does not exist in HBase (" + what + ")");
      }
      if (c instanceof NamespaceNotFoundException) {
        return new TableNotFoundException("namespace does not exist in HBase (" + on + "): "
            + c.getMessage());
      }
      if (c instanceof TableNotEnabledException && table != null) {
        return new TableDisabledException(table);
      }
      if (c instanceof TableExistsException || c instanceof NamespaceExistException
          || c instanceof TableNotDisabledException) {
        return new InvalidArgumentException(on + ": " + firstLine(c));
      }
      if (c instanceof NotServingRegionException || c instanceof RetriesExhaustedException
          || c instanceof CallTimeoutException || c instanceof TimeoutIOException
          || c instanceof SocketTimeoutException || c instanceof ConnectException) {
        return new StorageUnavailableException("HBase did not answer " + on + ": "
            + firstLine(c), e);
      }
    }
    if (e instanceof InterruptedIOException) {
      Thread.currentThread().interrupt();
      return new StorageUnavailableException("interrupted while waiting for HBase (" + on + ")",
          e);
    }
    if (e instanceof DoNotRetryIOException) {
      return new InvalidArgumentException("HBase refused " + on + ": " + firstLine(e));
    }
    return new StorageIOException("HBase failed " + on + ": " + firstLine(e), e);
  }

  private static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
