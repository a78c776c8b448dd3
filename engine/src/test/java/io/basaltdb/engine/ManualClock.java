package io.basaltdb.engine;

import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand. */
public final class ManualClock implements Clock {
  private final AtomicLong now;

  public ManualClock(long start) {
    now = new AtomicLong(start);
  }

  @Override
  public long millis() {
    return now.get();
  }

  public void advance(long ms) {
    now.addAndGet(ms);
  }
}
