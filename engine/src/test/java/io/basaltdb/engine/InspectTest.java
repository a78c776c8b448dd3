package io.basaltdb.engine;

import io.basaltdb.storage.Put;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.tool.Inspect;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectTest {
  @TempDir Path tmp;

  private static String run(int expectedCode, String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = Inspect.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(expectedCode, code, out);
    return out;
  }

  @Test
  void describesFilesLogsManifestsAndFindsDamage() throws Exception {
    Path dir = tmp.resolve("db");
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      db.admin().createTable(TableDescriptor.of("t", "f"));
      for (int i = 0; i < 500; i++) {
        db.table("t").put(new Put(("r" + i).getBytes()).addColumn("f".getBytes(), "q".getBytes(),
            ("v" + i).getBytes()));
      }
      db.admin().flush(TableName.of("t"));
    }
    Path blk;
    try (Stream<Path> s = Files.walk(dir.resolve("regions"))) {
      blk = s.filter(p -> p.toString().endsWith(".blk")).findFirst().orElseThrow();
    }
    assertTrue(run(0, "file", blk.toString(), "--cells", "2").contains("500 cells"));
    assertTrue(run(0, "wal", dir.resolve("wal").toString()).contains("500 edits"));
    assertTrue(run(0, "manifest", blk.getParent().toString()).contains("1 file(s)"));
    assertTrue(run(0, "check", dir.toString()).contains("500 cells read"));
    try (RandomAccessFile f = new RandomAccessFile(blk.toFile(), "rw")) {
      f.seek(10);
      f.write(f.read() ^ 0xff);
    }
    String damaged = run(1, "check", dir.toString());
    assertTrue(damaged.contains(blk.getFileName().toString()) && damaged.contains("offset"),
        damaged);
    run(2, "nonsense", "x");
  }
}
