package io.basaltdb.engine.tool;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.file.FileInfo;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.io.NioFileSystem;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import io.basaltdb.engine.wal.WalReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Looks inside a database's files, for people and for debugging:
 * <pre>
 * file &lt;path.blk&gt; [--cells N]   trailer, info and index of a block file, and its first N cells
 * wal &lt;wal dir&gt;                  the edits of every segment (replay is read-only here)
 * manifest &lt;store dir&gt;           a store's live files and flushed sequence id
 * check &lt;database dir&gt;           opens the database and reads every cell of every file
 * salvage-wal &lt;wal dir&gt;          keeps the intact records of damaged segments, sets the
 *                               damaged originals aside as *.damaged (lossy, explicit repair)
 * </pre>
 * Every damaged byte found is reported as the engine reports it: file and offset.
 */
public final class Inspect {
  private static final FileSystem FS = NioFileSystem.INSTANCE;

  private Inspect() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  /** Runs a command; returns the exit code (0 fine, 1 damage found, 2 usage). */
  public static int run(String[] args, PrintStream out) {
    if (args.length < 2) {
      out.println("usage: inspect file <path> [--cells N] | wal <dir> | manifest <store dir>"
          + " | check <database dir> | salvage-wal <wal dir>");
      return 2;
    }
    Path p = Path.of(args[1]);
    try {
      switch (args[0]) {
        case "file" -> file(p, args.length > 3 && args[2].equals("--cells")
            ? Integer.parseInt(args[3]) : 0, out);
        case "wal" -> wal(p, out);
        case "manifest" -> manifest(p, out);
        case "salvage-wal" -> salvageWal(p, out);
        case "check" -> {
          return check(p, out);
        }
        default -> {
          out.println("unknown command " + args[0]);
          return 2;
        }
      }
      return 0;
    } catch (RuntimeException e) {
      out.println("error: " + e.getMessage());
      return 1;
    }
  }

  static void file(Path p, int cells, PrintStream out) {
    try (BlockFileReader r = BlockFileReader.open(FS, p, new BlockCache(0))) {
      FileInfo i = r.info();
      out.printf("file %s: %d bytes, %d data blocks, %d index level(s), bloom %s%n", p,
          r.length(), r.dataBlockCount(), r.indexLevels(), i.bloomType());
      out.printf("family %s, %d cells (%d deletes), max seq %d, timestamps [%d, %d]%n",
          new String(i.family(), StandardCharsets.UTF_8), i.cellCount(), i.deleteCount(),
          i.maxSequenceId(), i.minTimestamp(), i.maxTimestamp());
      out.printf("first %s%nlast  %s%n", i.firstCell(), i.lastCell());
      if (cells > 0) {
        CellIterator it = r.scanner();
        it.seekToFirst();
        for (int n = 0; n < cells && it.current() != null; n++, it.next()) {
          Cell c = it.current();
          out.println("  " + c + " = " + Cell.printable(c.value()));
        }
      }
    }
  }

  static void wal(Path dir, PrintStream out) {
    long[] cells = {0};
    // replay truncates a torn tail of the newest segment, as opening the database would
    var stats = WalReader.replay(FS, dir, e -> cells[0] += e.cells().size());
    out.printf("wal %s: %d segment(s), %d edits, %d cells, max seq %d, %d torn bytes dropped%n",
        dir, stats.segments(), stats.edits(), cells[0], stats.maxSequenceId(),
        stats.truncatedBytes());
  }

  static void manifest(Path storeDir, PrintStream out) {
    Manifest m = Manifest.read(FS, storeDir);
    out.printf("manifest %s: flushed seq %d, next file %d, %d file(s)%n", storeDir,
        m.flushedSeq(), m.nextFileNumber(), m.files().size());
    for (Manifest.FileEntry f : m.files()) {
      out.printf("  %s %d bytes%s%n", f.name(), f.size(),
          Files.exists(storeDir.resolve(f.name())) ? "" : " MISSING");
    }
  }

  static void salvageWal(Path dir, PrintStream out) {
    var dropped = WalReader.salvage(FS, dir);
    for (var d : dropped) {
      out.printf("salvaged %s: damage at offset %d (%s), %d bytes set aside in %s.damaged%n",
          d.segment(), d.firstDamageOffset(), d.what(), d.droppedBytes(),
          d.segment().getFileName());
    }
    out.printf("salvage-wal %s: %d damaged segment(s)%n", dir, dropped.size());
  }

  static int check(Path dbDir, PrintStream out) {
    long cells = 0;
    long files = 0;
    try (Database db = Database.open(dbDir, EngineOptions.defaults().withBlockCacheBytes(0))) {
      for (Region r : db.allRegions()) {
        for (Store s : r.stores()) {
          for (StoreFile f : s.filesSnapshot()) {
            CellIterator it = f.reader().scanner();
            for (it.seekToFirst(); it.current() != null; it.next()) {
              cells++;
            }
            files++;
          }
        }
      }
    }
    out.printf("check %s: %d files, %d cells read, no damage found%n", dbDir, files, cells);
    return 0;
  }
}
