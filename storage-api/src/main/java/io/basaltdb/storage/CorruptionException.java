package io.basaltdb.storage;

/**
 * Stored bytes failed a check (checksum, magic, length, a file the manifest names is
 * missing). The message names the file and, where known, the byte offset. Never retried:
 * returning silently wrong data is worse than failing.
 */
public class CorruptionException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public CorruptionException(String message) {
    super(message);
  }

  public CorruptionException(String file, long offset, String what) {
    super("corruption in " + file + " at offset " + offset + ": " + what);
  }
}
