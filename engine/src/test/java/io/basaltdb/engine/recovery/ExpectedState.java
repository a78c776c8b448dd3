package io.basaltdb.engine.recovery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The crash campaign's oracle (in the manner of RocksDB's {@code expected_state}): what a
 * single writer's table must hold after a power loss.
 *
 * <p>Each operation is recorded as its effect: the rows it leaves, whole (an empty row is a
 * row with no cells). {@code durable} holds every effect up to the last acknowledged SYNC
 * operation, since its fsync covered the log up to it. {@code tail} holds what came after:
 * acknowledged ASYNC effects and the operation in flight at the crash (a batch is one effect
 * per row, in the order they are written; a transaction's rows are one group, which a prefix
 * takes whole or not at all). After a power loss the table must equal
 * {@code durable} plus some prefix of {@code tail}: nothing acknowledged under SYNC lost, ASYNC
 * losing only a suffix, no row half-written. Not thread-safe (one writer).
 */
final class ExpectedState {
  /** One row's state after an operation: column ("fam:qual") to value. */
  record Effect(String row, Map<String, String> cells, String what, boolean continues) {
    Effect(String row, Map<String, String> cells, String what) {
      this(row, cells, what, false);
    }
  }

  private final TreeMap<String, Map<String, String>> durable = new TreeMap<>();
  private final List<Effect> tail = new ArrayList<>();
  private int inFlight; // effects at the end of tail whose operation has not returned

  /** The live state a new operation sees (everything acknowledged). */
  Map<String, String> row(String row) {
    for (int i = tail.size() - 1 - inFlight; i >= 0; i--) {
      if (tail.get(i).row.equals(row)) {
        return tail.get(i).cells;
      }
    }
    return durable.getOrDefault(row, Map.of());
  }

  /** An operation begins: its effects are in flight until {@link #acknowledged}. */
  void begin(List<Effect> effects) {
    if (inFlight != 0) {
      throw new IllegalStateException("one operation at a time");
    }
    tail.addAll(effects);
    inFlight = effects.size();
  }

  /** The operation in flight returned: with {@code sync}, everything so far is durable. */
  void acknowledged(boolean sync) {
    inFlight = 0;
    if (sync) {
      for (Effect e : tail) {
        put(durable, e);
      }
      tail.clear();
    }
  }

  private static void put(Map<String, Map<String, String>> state, Effect e) {
    if (e.cells.isEmpty()) {
      state.remove(e.row);
    } else {
      state.put(e.row, e.cells);
    }
  }

  /**
   * Checks the recovered table; returns how many effects of the tail it holds and makes that
   * the new durable state. Throws AssertionError describing the first difference otherwise.
   */
  int verify(Map<String, Map<String, String>> actual, String where) {
    Set<String> touched = new HashSet<>();
    tail.forEach(e -> touched.add(e.row));
    for (Map.Entry<String, Map<String, String>> e : durable.entrySet()) {
      if (!touched.contains(e.getKey()) && !e.getValue().equals(actual.get(e.getKey()))) {
        throw new AssertionError(where + ": row " + e.getKey() + " should be " + e.getValue()
            + " (acknowledged and synced) but is " + actual.get(e.getKey()));
      }
    }
    for (Map.Entry<String, Map<String, String>> e : actual.entrySet()) {
      if (!touched.contains(e.getKey()) && !durable.containsKey(e.getKey())) {
        throw new AssertionError(where + ": row " + e.getKey() + " = " + e.getValue()
            + " was never written or was deleted");
      }
    }
    TreeMap<String, Map<String, String>> state = new TreeMap<>();
    for (String r : touched) {
      if (durable.containsKey(r)) {
        state.put(r, durable.get(r));
      }
    }
    for (int k = 0; ; k++) {
      // a prefix never ends inside an atomic group (a transaction's rows: all or none)
      if ((k == 0 || !tail.get(k - 1).continues) && matches(state, actual, touched)) {
        for (int i = 0; i < k; i++) {
          put(durable, tail.get(i));
        }
        tail.clear();
        inFlight = 0;
        return k;
      }
      if (k == tail.size()) {
        break;
      }
      put(state, tail.get(k));
    }
    StringBuilder b = new StringBuilder(where + ": the recovered rows are no prefix of the"
        + " unsynced operations\n  tail:");
    tail.forEach(e -> b.append("\n    ").append(e));
    b.append("\n  durable before the tail / recovered:");
    for (String r : touched) {
      b.append("\n    ").append(r).append(": ").append(durable.get(r)).append(" / ")
          .append(actual.get(r));
    }
    throw new AssertionError(b.toString());
  }

  private static boolean matches(Map<String, Map<String, String>> state,
      Map<String, Map<String, String>> actual, Set<String> touched) {
    for (String r : touched) {
      if (!java.util.Objects.equals(state.get(r), actual.get(r))) {
        return false;
      }
    }
    return true;
  }

  int tailSize() {
    return tail.size();
  }
}
