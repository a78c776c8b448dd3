package io.basaltdb.engine;

/**
 * The engine's only source of time: engine-assigned timestamps and TTL expiry read it.
 * Passed in through {@link EngineOptions}, never global, so tests can move time.
 */
@FunctionalInterface
public interface Clock {
  /** Milliseconds since the epoch. */
  long millis();

  Clock SYSTEM = System::currentTimeMillis;
}
