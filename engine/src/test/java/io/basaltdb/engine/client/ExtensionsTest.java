package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a layer above keeps for an open database ({@code Storage.extension}) is one object per
 * type, per database, and goes with it: one that holds resources (a layer's worker threads) is
 * closed once when the database closes, even if another fails to close.
 */
class ExtensionsTest {
  @TempDir Path tmp;

  /** An extension counting its closes. */
  static final class Workers implements AutoCloseable {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  /** An extension failing to close. */
  static final class Failing implements AutoCloseable {
    @Override
    public void close() {
      throw new IllegalStateException("cannot close");
    }
  }

  @Test
  void closeableExtensionsCloseWithTheirDatabaseOnce() {
    Workers a;
    Workers b;
    try (Database one = Database.open(tmp.resolve("one"), EngineOptions.defaults());
        Database two = Database.open(tmp.resolve("two"), EngineOptions.defaults())) {
      one.extension(Failing.class, Failing::new);
      a = one.extension(Workers.class, Workers::new);
      assertSame(a, one.extension(Workers.class, Workers::new));
      b = two.extension(Workers.class, Workers::new);
      assertEquals(0, a.closes.get());
      one.close();
      assertEquals(1, a.closes.get(), "closed with its database");
      assertEquals(0, b.closes.get(), "the other database's is its own");
      one.close();
      assertEquals(1, a.closes.get(), "a second close closes nothing again");
    }
    assertEquals(1, b.closes.get());
  }
}
