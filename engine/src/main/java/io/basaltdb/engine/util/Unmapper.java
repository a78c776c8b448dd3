package io.basaltdb.engine.util;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Releases a memory mapping at once rather than when the garbage collector gets to it (so a
 * deleted file's disk space comes back promptly). Uses {@code sun.misc.Unsafe.invokeCleaner}
 * from the {@code jdk.unsupported} module when present; otherwise does nothing and the mapping
 * goes with the buffer. The caller guarantees nobody reads the buffer afterwards.
 */
public final class Unmapper {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method m = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      m = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      unsafe = null;
      m = null;
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = m;
  }

  private Unmapper() {}

  public static void unmap(ByteBuffer mapped) {
    if (INVOKE_CLEANER == null || mapped == null || !mapped.isDirect()) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, mapped);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // leave it to the garbage collector
    }
  }
}
