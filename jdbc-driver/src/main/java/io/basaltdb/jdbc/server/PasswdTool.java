package io.basaltdb.jdbc.server;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a user's line to the server's users file with a salted slow hash of the password
 * ({@link PasswordHash}); the password is read from the console without echo, or from standard
 * input when there is none (scripts). Replaces the user's line if there is one.
 *
 * <pre>bin/basalt passwd USER basalt-admin|basalt-read --file users.properties</pre>
 */
public final class PasswdTool {
  private PasswdTool() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4 || !args[2].equals("--file")
        || !(UsersFile.ADMIN.equals(args[1]) || UsersFile.READ.equals(args[1]))) {
      System.err.println("usage: basalt passwd USER " + UsersFile.ADMIN + "|" + UsersFile.READ
          + " --file USERS-FILE");
      System.exit(2);
    }
    String user = args[0];
    if (!user.matches("[A-Za-z0-9_.@-]+")) {
      System.err.println("basalt passwd: a user name is letters, digits and _.@- only");
      System.exit(2);
    }
    char[] password;
    if (System.console() != null) {
      password = System.console().readPassword("password for %s: ", user);
      char[] again = System.console().readPassword("again: ");
      if (!java.util.Arrays.equals(password, again)) {
        System.err.println("basalt passwd: the two passwords differ; nothing written");
        System.exit(1);
      }
    } else {
      String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
          .readLine();
      password = line == null ? new char[0] : line.toCharArray();
    }
    if (password.length < 8) {
      System.err.println("basalt passwd: a password has at least 8 characters; nothing written");
      System.exit(1);
    }
    Path file = Path.of(args[3]);
    write(file, user, PasswordHash.hash(password), args[1]);
    System.err.println("basalt passwd: " + user + " (" + args[1] + ") written to " + file);
  }

  static void write(Path file, String user, String hash, String role) throws Exception {
    List<String> lines = Files.exists(file) ? new ArrayList<>(Files.readAllLines(file))
        : new ArrayList<>();
    lines.removeIf(l -> l.trim().startsWith(user + ":"));
    lines.add(user + ": " + hash + "," + role);
    Files.write(file, lines);
  }
}
