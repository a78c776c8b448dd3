package io.basaltdb.engine.util;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Durability helpers for directory entries. */
public final class Fsync {
  private Fsync() {}

  /** fsyncs a directory so that a created, renamed or deleted entry is durable. */
  public static void directory(Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }
}
