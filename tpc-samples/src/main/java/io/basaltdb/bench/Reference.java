package io.basaltdb.bench;

import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Loads a reference store's adapter (RocksDB's, compiled only under the {@code bench} Maven
 * profile) by name, so the runners work, Basalt only, without it. Null when it is absent.
 */
final class Reference {
  private Reference() {}

  @SuppressWarnings("unchecked")
  static <T> BiFunction<Path, Long, T> factory(String className) {
    try {
      Class<?> c = Class.forName(className);
      var ctor = c.getConstructor(Path.class, long.class);
      return (p, cache) -> {
        try {
          return (T) ctor.newInstance(p, cache);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("cannot open " + className, e);
        }
      };
    } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
      return null;
    }
  }
}
