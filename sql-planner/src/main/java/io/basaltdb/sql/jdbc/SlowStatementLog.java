package io.basaltdb.sql.jdbc;

import io.basaltdb.storage.Storage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the slow statements of one open database are written (kept by it): standard error, or
 * a file a server names ({@code --slow-statement-log}), appended to, one line per statement
 * ({@link StatementWatch} writes them). Thread-safe: a line is written whole.
 */
public final class SlowStatementLog implements AutoCloseable {
  private PrintStream out = System.err;
  private boolean ownsOut;

  private SlowStatementLog() {}

  public static SlowStatementLog of(Storage db) {
    return db.extension(SlowStatementLog.class, SlowStatementLog::new);
  }

  /** From now on lines go to {@code file} (appended; created if absent). */
  public synchronized void writeTo(Path file) throws IOException {
    PrintStream next = new PrintStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND, StandardOpenOption.WRITE), true,
        java.nio.charset.StandardCharsets.UTF_8);
    close();
    out = next;
    ownsOut = true;
  }

  synchronized void write(String line) {
    out.println(line);
  }

  @Override
  public synchronized void close() {
    if (ownsOut) {
      out.close();
      out = System.err;
      ownsOut = false;
    }
  }
}
