package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The start-up preload: it loads the classes its list names without running their static
 * initializers (which could deadlock against the connecting thread), skips comments and names
 * that do not exist, and the list shipped beside {@link StartUp} names classes of this build.
 */
class StartUpTest {
  /** Set by {@link Initialized}'s static initializer. */
  static volatile boolean initializerRan;

  static final class Initialized {
    static {
      initializerRan = true;
    }

    private Initialized() {}
  }

  @org.junit.jupiter.api.Test
  void loadsWithoutInitializingAndSkipsWhatIsGone() throws Exception {
    String list = "# a comment\n\n" + Initialized.class.getName() + "\n"
        + "io.basaltdb.NoSuchClassAnyMore\nio.basaltdb.shaded.com.google.common.base.Nope\n"
        + "io.basaltdb.shaded.com.google.common.base.Strings\n  java.util.ArrayList  \n";
    ClassLoader loader = getClass().getClassLoader();
    int found = StartUp.preload(
        new ByteArrayInputStream(list.getBytes(StandardCharsets.UTF_8)), loader);
    assertEquals(2, found, "the class and ArrayList found; the missing names skipped, and the"
        + " relocated names after a missing one (this class path has none)");
    assertFalse(initializerRan, "a preloaded class is not initialized");
    Class.forName(Initialized.class.getName(), true, loader);
    assertTrue(initializerRan, "the probe's initializer does run once the class is initialized");
    assertEquals(0, StartUp.preload(null, loader), "no list: nothing loaded");
  }

  @org.junit.jupiter.api.Test
  void theShippedListNamesThisBuildsClasses() throws IOException {
    int named = 0;
    int unshaded = 0;
    try (InputStream in = StartUp.class.getResourceAsStream(StartUp.CLASS_LIST)) {
      assertTrue(in != null, "the list ships beside StartUp");
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          named++;
          if (!line.startsWith("io.basaltdb.shaded.")) { // relocated in the driver's jar only
            unshaded++;
          }
        }
      }
    }
    // this module's class path holds every unshaded name but the driver module's own
    int found = StartUp.preload(StartUp.class.getResourceAsStream(StartUp.CLASS_LIST),
        getClass().getClassLoader());
    assertTrue(named > 1_000, "the list names a first statement's classes: " + named);
    assertTrue(found >= unshaded * 9 / 10, "a stale list: " + found + " of the " + unshaded
        + " unshaded names load; remake it (FirstStatementClasses)");
  }
}
