package io.basaltdb.engine.backup;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A backup's own manifest, the file {@code BACKUP} at its top, written last: the cut's sequence
 * id, when and from where it was taken, and every file of the backup with its size and CRC32C.
 * A backup without a valid one is incomplete; nothing else marks completion. Text, one field
 * per line, ending with a CRC32C of every byte before it ({@code engine/doc/backup.md},
 * "The BACKUP manifest"). Immutable.
 */
public record BackupManifest(long cutSequence, long createdMillis, String source,
    List<Entry> files) {
  public static final String NAME = "BACKUP";
  static final String MAGIC = "BASALT-BACKUP";
  static final int FORMAT_VERSION = 1;

  /** One file of the backup: its path under the backup's directory ('/'-separated). */
  public record Entry(String path, long size, int crc32c) {}

  public BackupManifest {
    files = List.copyOf(files);
  }

  /** The entries by path. */
  public Map<String, Entry> byPath() {
    Map<String, Entry> m = new LinkedHashMap<>();
    for (Entry e : files) {
      m.put(e.path, e);
    }
    return m;
  }

  public long totalBytes() {
    long n = 0;
    for (Entry e : files) {
      n += e.size;
    }
    return n;
  }

  byte[] encode() {
    StringBuilder b = new StringBuilder();
    b.append(MAGIC).append(' ').append(FORMAT_VERSION).append('\n');
    b.append("cut ").append(cutSequence).append('\n');
    b.append("created ").append(createdMillis).append('\n');
    b.append("source ").append(oneLine(source)).append('\n');
    b.append("files ").append(files.size()).append('\n');
    for (Entry e : files) {
      b.append("file ").append(e.size).append(' ').append(hex(e.crc32c)).append(' ')
          .append(oneLine(e.path)).append('\n');
    }
    byte[] body = b.toString().getBytes(StandardCharsets.UTF_8);
    String check = "check " + hex(crc(body, body.length)) + "\n";
    byte[] out = new byte[body.length + check.length()];
    System.arraycopy(body, 0, out, 0, body.length);
    System.arraycopy(check.getBytes(StandardCharsets.US_ASCII), 0, out, body.length,
        check.length());
    return out;
  }

  /** Writes it durably as {@code dir/BACKUP} (a temporary file renamed, then the directory synced). */
  void writeTo(FileSystem fs, Path dir) {
    AtomicFiles.write(fs, dir, NAME, encode(), "backup.manifest");
  }

  /**
   * The manifest of the backup in {@code dir}; a {@link CorruptionException} naming the file
   * when it is missing (an incomplete backup, or not a backup) or fails its checks.
   */
  public static BackupManifest read(FileSystem fs, Path dir) {
    Path p = dir.resolve(NAME);
    byte[] b;
    try {
      b = AtomicFiles.readAll(fs, p);
    } catch (NoSuchFileException e) {
      throw new CorruptionException(dir + " is not a complete backup: it has no " + NAME
          + " manifest (a backup writes it last; an interrupted one has none)");
    } catch (IOException e) {
      throw new CorruptionException("cannot read " + p + ": " + e.getMessage());
    }
    return decode(b, p.toString());
  }

  static BackupManifest decode(byte[] b, String where) {
    int lastLine = b.length - 1;
    while (lastLine > 0 && b[lastLine - 1] != '\n') {
      lastLine--;
    }
    if (b.length == 0 || b[b.length - 1] != '\n' || lastLine <= 0) {
      throw new CorruptionException(where, b.length, "backup manifest is truncated");
    }
    String check = new String(b, lastLine, b.length - lastLine - 1, StandardCharsets.US_ASCII);
    if (!check.equals("check " + hex(crc(b, lastLine)))) {
      throw new CorruptionException(where, lastLine, "backup manifest checksum mismatch");
    }
    String[] lines = new String(b, 0, lastLine - 1, StandardCharsets.UTF_8).split("\n", -1);
    try {
      if (!lines[0].equals(MAGIC + " " + FORMAT_VERSION)) {
        throw new CorruptionException(where, 0, "not a backup manifest of format "
            + FORMAT_VERSION + ": " + lines[0]);
      }
      long cut = Long.parseLong(field(lines[1], "cut"));
      long created = Long.parseLong(field(lines[2], "created"));
      String source = field(lines[3], "source");
      int n = Integer.parseInt(field(lines[4], "files"));
      if (lines.length != 5 + n) {
        throw new CorruptionException(where, 0, "backup manifest lists " + (lines.length - 5)
            + " files, says " + n);
      }
      List<Entry> files = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String[] f = field(lines[5 + i], "file").split(" ", 3);
        files.add(new Entry(f[2], Long.parseLong(f[0]), Integer.parseUnsignedInt(f[1], 16)));
      }
      return new BackupManifest(cut, created, source, files);
    } catch (RuntimeException e) {
      if (e instanceof CorruptionException c) {
        throw c;
      }
      throw new CorruptionException(where, 0, "malformed backup manifest: " + e);
    }
  }

  private static String field(String line, String name) {
    if (!line.startsWith(name + " ")) {
      throw new IllegalArgumentException("expected '" + name + "' in: " + line);
    }
    return line.substring(name.length() + 1);
  }

  private static String oneLine(String s) {
    if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a line break in a backup path: " + s);
    }
    return s;
  }

  static int crc(byte[] b, int len) {
    CRC32C c = new CRC32C();
    c.update(b, 0, len);
    return (int) c.getValue();
  }

  static String hex(int crc) {
    return String.format("%08x", crc);
  }
}
