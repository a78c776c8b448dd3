package io.basaltdb.jdbc.tool;

import java.io.PrintStream;

/** {@link AdminTool#run} for tests of other packages. */
public final class AdminToolAccess {
  private AdminToolAccess() {}

  public static int run(String[] args, PrintStream out, PrintStream err) {
    return AdminTool.run(args, out, err);
  }
}
