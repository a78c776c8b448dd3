package io.basaltdb.engine.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** The operating system's file system, through java.nio. Stateless. */
public final class NioFileSystem implements FileSystem {
  public static final NioFileSystem INSTANCE = new NioFileSystem();

  private NioFileSystem() {}

  @Override
  public FileChannel createNew(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  @Override
  public FileChannel openForWrite(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.WRITE);
  }

  @Override
  public FileChannel openForRead(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Path abs = dir.toAbsolutePath();
    List<Path> missing = new ArrayList<>();
    for (Path p = abs; p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.add(0, p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(p);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (!Files.isDirectory(p)) {
          throw e;
        }
      }
      syncDirectory(p.getParent());
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    Files.createLink(link, existing);
  }

  @Override
  public boolean deleteIfExists(Path p) throws IOException {
    return Files.deleteIfExists(p);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.toList();
    }
  }

  @Override
  public boolean exists(Path p) {
    return Files.exists(p);
  }

  @Override
  public boolean isDirectory(Path p) {
    return Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public long size(Path file) throws IOException {
    return Files.size(file);
  }
}
