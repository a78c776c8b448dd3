package io.basaltdb.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a paired benchmark in a JVM of its own (as JMH forks): started with this JVM's
 * class path and options running {@code main}'s {@code --serve} mode, it prepares (loads,
 * warms up), prints a ready line, then runs one measure per command line it reads and prints
 * its result on a line of its own, until its input ends. Two such JVMs take turns, one idle
 * while the other runs: run in one JVM, the side measured second paid for the JIT's profiles
 * of code both sides share (the bench's own loops, sockets, collections) being polluted by the
 * other's driver. Lines of its output not tagged as asked are kept for the error if it ends.
 */
final class ServingJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final Writer in;
  /** The ready line's fields after its tag. */
  final String[] ready;

  /** Starts {@code main --serve args...} and waits for its line tagged {@code readyTag}. */
  ServingJvm(Class<?> main, List<String> args, String readyTag) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName(), "--serve"));
    cmd.addAll(args);
    process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    ready = line(readyTag, "warming up");
  }

  /** Sends {@code command} and waits for its line tagged {@code resultTag}: its fields. */
  String[] run(String command, String resultTag) throws Exception {
    in.write(command + "\n");
    in.flush();
    return line(resultTag, command);
  }

  private String[] line(String tag, String what) throws Exception {
    StringBuilder seen = new StringBuilder();
    for (String l = out.readLine(); l != null; l = out.readLine()) {
      if (l.startsWith(tag + " ")) {
        String[] f = l.trim().split(" ");
        return java.util.Arrays.copyOfRange(f, 1, f.length);
      }
      seen.append(l).append('\n');
    }
    throw new IllegalStateException("the JVM serving " + what + " ended (exit "
        + process.waitFor() + "): " + seen);
  }

  /** Ends its input (it closes what it opened and exits) and waits for it. */
  @Override
  public void close() throws Exception {
    in.close();
    process.waitFor();
  }
}
