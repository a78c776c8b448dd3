/**
 * The engine's only door to files and directories ({@link io.basaltdb.engine.io.FileSystem}):
 * the default goes straight to the operating system ({@link io.basaltdb.engine.io.NioFileSystem});
 * tests pass one that injects faults, simulates power loss and stops at named crash points.
 */
package io.basaltdb.engine.io;
