package io.basaltdb.engine.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * A {@link FileSystem} over the real disk that remembers what was never made durable, in the
 * manner of LevelDB's and RocksDB's fault-injection environments, so that a test can:
 * <ul>
 *   <li>fail a chosen operation (a write, fsync, rename, ...) with an {@link IOException}
 *       ({@link #setFaults});</li>
 *   <li>crash: at the n-th operation or at a named {@link #crashPoint crash point}, every later
 *       operation fails, as if the machine stopped ({@link #crashed()});</li>
 *   <li>then simulate the power loss: {@link #powerLoss()} cuts every file back to what its
 *       last fsync covered and undoes every directory change (create, rename, delete) that no
 *       directory fsync made durable, newest first.</li>
 * </ul>
 * Deleted and replaced files are kept in a trash directory until their directory is synced,
 * so that a power loss can bring them back. Thread-safe: operations hold the read side of
 * {@code gate}; {@link #powerLoss} holds the write side (no operation runs meanwhile).
 */
public final class FaultInjectingFileSystem implements FileSystem {
  /** The kinds of operation a fault can be attached to. */
  public enum Op { CREATE, WRITE, SYNC, TRUNCATE, MKDIR, DIRSYNC, RENAME, DELETE, LINK }

  /**
   * What to do at an operation. {@code DISK_FULL} fails it as a full disk does ("No space left
   * on device"), after writing part of the bytes when it is a write.
   */
  public enum Action { PASS, FAIL, CRASH, DISK_FULL }

  /** The message of a full disk's failure, as the JDK reports ENOSPC on Linux. */
  public static final String NO_SPACE = "No space left on device";

  /** Decides the fate of each operation; {@code n} counts every operation from 1. */
  public interface Faults {
    Action decide(Op op, Path path, long n);
  }

  /** Thrown at a crash (an operation or a crash point): the engine's thread stops there. */
  public static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String where) {
      super("simulated crash at " + where);
    }
  }

  private sealed interface Undo permits Created, Deleted, Renamed {}

  private record Created(Path dir, Path path) implements Undo {}

  private record Deleted(Path dir, Path path, Path saved, boolean directory) implements Undo {}

  private record Renamed(Path dir, Path from, Path to, Path savedTarget) implements Undo {}

  private final FileSystem real = NioFileSystem.INSTANCE;
  private final Path trash;
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  private final AtomicLong ops = new AtomicLong();
  private final AtomicLong trashed = new AtomicLong();
  private volatile boolean crashed;
  private volatile String crashedAt;
  private volatile Faults faults = (op, p, n) -> Action.PASS;
  private volatile Predicate<String> crashPoints = name -> false;

  // guarded by this
  private final Map<Path, Long> syncedLength = new HashMap<>();
  private final List<Undo> undo = new ArrayList<>();

  /** {@code trash}: a directory outside the database, for files a power loss may bring back. */
  public FaultInjectingFileSystem(Path trash) throws IOException {
    this.trash = trash.toAbsolutePath();
    Files.createDirectories(this.trash);
  }

  public void setFaults(Faults f) {
    faults = f;
  }

  /** Crash at the first crash point whose name matches. */
  public void setCrashPoints(Predicate<String> p) {
    crashPoints = p;
  }

  public boolean crashed() {
    return crashed;
  }

  /** Where the crash happened (an operation and path, or a crash point), or null. */
  public String crashedAt() {
    return crashedAt;
  }

  public long operations() {
    return ops.get();
  }

  /** Stops the machine now: every later operation fails. */
  public void crash(String where) {
    if (!crashed) {
      crashedAt = where;
      crashed = true;
    }
  }

  @Override
  public void crashPoint(String name) {
    if (!crashed && crashPoints.test(name)) {
      crash("crash point " + name);
      throw new SimulatedCrash("crash point " + name);
    }
  }

  // ------------------------------------------------------------ the gate

  /** Called (gate held) before an operation changes anything; returns PASS or DISK_FULL. */
  private Action before(Op op, Path p) throws IOException {
    if (crashed) {
      throw new IOException("simulated crash (" + crashedAt + "): " + op + " " + p);
    }
    long n = ops.incrementAndGet();
    Action a = faults.decide(op, p, n);
    switch (a) {
      case PASS, DISK_FULL -> { }
      case FAIL -> throw new IOException("injected fault: " + op + " " + p + " (#" + n + ")");
      case CRASH -> {
        crash(op + " " + p + " (#" + n + ")");
        throw new IOException("simulated crash at " + op + " " + p);
      }
      default -> throw new AssertionError();
    }
    return a;
  }

  interface IoAction<T> {
    T run() throws IOException;
  }

  <T> T guarded(Op op, Path p, IoAction<T> action) throws IOException {
    gate.readLock().lock();
    try {
      if (before(op, p) == Action.DISK_FULL) {
        throw new IOException(NO_SPACE);
      }
      return action.run();
    } finally {
      gate.readLock().unlock();
    }
  }

  /**
   * A write of {@code src} through {@code ch}; on a full disk the first half of its bytes is
   * written (as a real short write before ENOSPC would) and then the write fails.
   */
  int guardedWrite(Path p, FileChannel ch, ByteBuffer src) throws IOException {
    gate.readLock().lock();
    try {
      if (before(Op.WRITE, p) == Action.DISK_FULL) {
        ByteBuffer part = src.duplicate();
        part.limit(src.position() + src.remaining() / 2);
        while (part.hasRemaining()) {
          ch.write(part);
        }
        src.position(part.position());
        throw new IOException(NO_SPACE);
      }
      return ch.write(src);
    } finally {
      gate.readLock().unlock();
    }
  }

  private static Path norm(Path p) {
    return p.toAbsolutePath().normalize();
  }

  // ------------------------------------------------------------ operations

  @Override
  public FileChannel createNew(Path file) throws IOException {
    Path p = norm(file);
    return guarded(Op.CREATE, p, () -> {
      FileChannel ch = real.createNew(p);
      synchronized (this) {
        syncedLength.put(p, 0L);
        undo.add(new Created(p.getParent(), p));
      }
      return new TrackedChannel(this, p, ch);
    });
  }

  @Override
  public FileChannel openForWrite(Path file) throws IOException {
    Path p = norm(file);
    FileChannel ch = real.openForWrite(p);
    synchronized (this) {
      syncedLength.putIfAbsent(p, ch.size()); // what was there before is taken as durable
    }
    return new TrackedChannel(this, p, ch);
  }

  @Override
  public FileChannel openForRead(Path file) throws IOException {
    return real.openForRead(file);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Path abs = norm(dir);
    List<Path> missing = new ArrayList<>();
    for (Path p = abs; p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.add(0, p);
    }
    for (Path p : missing) {
      guarded(Op.MKDIR, p, () -> {
        Files.createDirectory(p);
        synchronized (this) {
          undo.add(new Created(p.getParent(), p));
        }
        return null;
      });
      syncDirectory(p.getParent());
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    Path d = norm(dir);
    guarded(Op.DIRSYNC, d, () -> {
      if (!Files.isDirectory(d)) {
        throw new java.nio.file.NoSuchFileException(d.toString());
      }
      synchronized (this) { // durability is simulated: no real fsync needed
        undo.removeIf(u -> {
          if (u instanceof Deleted x) {
            return x.dir.equals(d) && purge(x.saved);
          }
          if (u instanceof Renamed r) {
            return r.dir.equals(d) && purge(r.savedTarget);
          }
          return ((Created) u).dir.equals(d);
        });
      }
      return null;
    });
  }

  private static boolean purge(Path saved) {
    if (saved != null) {
      try {
        Files.deleteIfExists(saved);
      } catch (IOException ignored) {
        // trash is only a test's scratch space
      }
    }
    return true;
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    Path f = norm(from);
    Path t = norm(to);
    guarded(Op.RENAME, t, () -> {
      Path saved = null;
      if (Files.exists(t)) {
        saved = trashPath();
        Files.copy(t, saved, StandardCopyOption.COPY_ATTRIBUTES);
      }
      real.rename(f, t);
      synchronized (this) {
        Long len = syncedLength.remove(f);
        if (len != null) {
          syncedLength.put(t, len);
        }
        undo.add(new Renamed(t.getParent(), f, t, saved));
      }
      return null;
    });
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    Path l = norm(link);
    Path e = norm(existing);
    guarded(Op.LINK, l, () -> {
      real.createLink(l, e);
      synchronized (this) { // one inode: the link's durable length is the file's
        Long len = syncedLength.get(e);
        syncedLength.put(l, len != null ? len : Files.size(e));
        undo.add(new Created(l.getParent(), l));
      }
      return null;
    });
  }

  @Override
  public boolean deleteIfExists(Path p) throws IOException {
    Path x = norm(p);
    return guarded(Op.DELETE, x, () -> {
      if (!Files.exists(x)) {
        return false;
      }
      boolean dir = Files.isDirectory(x);
      Path saved = null;
      if (dir) {
        Files.delete(x);
      } else {
        saved = trashPath();
        Files.move(x, saved);
      }
      synchronized (this) {
        Long len = syncedLength.remove(x);
        if (len != null && saved != null) {
          syncedLength.put(saved, len);
        }
        undo.add(new Deleted(x.getParent(), x, saved, dir));
      }
      return true;
    });
  }

  private Path trashPath() {
    return trash.resolve("t" + trashed.incrementAndGet());
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    return real.list(dir);
  }

  @Override
  public boolean exists(Path p) {
    return real.exists(p);
  }

  @Override
  public boolean isDirectory(Path p) {
    return real.isDirectory(p);
  }

  @Override
  public long size(Path file) throws IOException {
    return real.size(file);
  }

  // called by TrackedChannel (gate held)
  synchronized void synced(Path p, long length) {
    syncedLength.put(p, length);
  }

  // ------------------------------------------------------------ power loss

  /**
   * The power goes out (call once the engine is closed or abandoned): files lose what their
   * last fsync did not cover, directory changes no directory fsync covered are undone, newest
   * first. Afterwards the file system works again and everything on disk counts as durable.
   * Returns how many bytes and directory changes were lost.
   */
  public String powerLoss() throws IOException {
    gate.writeLock().lock();
    try {
      crash("power loss");
      long bytes = 0;
      synchronized (this) {
        for (Map.Entry<Path, Long> e : syncedLength.entrySet()) {
          Path p = e.getKey();
          if (Files.isRegularFile(p) && Files.size(p) > e.getValue()) {
            bytes += Files.size(p) - e.getValue();
            try (FileChannel ch = FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
              ch.truncate(e.getValue());
            }
          }
        }
        int changes = undo.size();
        for (int i = undo.size() - 1; i >= 0; i--) {
          undo(undo.get(i));
        }
        undo.clear();
        syncedLength.clear();
        crashed = false;
        crashedAt = null;
        faults = (op, p, n) -> Action.PASS;
        crashPoints = name -> false;
        return bytes + " unsynced bytes and " + changes + " unsynced directory changes lost";
      }
    } finally {
      gate.writeLock().unlock();
    }
  }

  private static void undo(Undo u) throws IOException {
    if (u instanceof Created c) {
      deleteTree(c.path);
    } else if (u instanceof Deleted d) {
      if (d.directory) {
        Files.createDirectories(d.path);
      } else if (d.saved != null && Files.exists(d.saved) && Files.isDirectory(d.dir)) {
        Files.move(d.saved, d.path, StandardCopyOption.REPLACE_EXISTING);
      }
    } else if (u instanceof Renamed r) {
      if (Files.exists(r.to) && Files.isDirectory(r.from.getParent())) {
        Files.move(r.to, r.from, StandardCopyOption.REPLACE_EXISTING);
      }
      if (r.savedTarget != null && Files.exists(r.savedTarget)) {
        Files.move(r.savedTarget, r.to, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try (var s = Files.list(p)) {
        for (Path c : s.toList()) {
          deleteTree(c);
        }
      }
    }
    Files.deleteIfExists(p);
  }
}
