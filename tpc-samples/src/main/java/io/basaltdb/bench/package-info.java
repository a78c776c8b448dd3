/**
 * Benchmark runners. {@link io.basaltdb.bench.EngineBench} runs the classic LSM workloads on
 * Basalt and, when the {@code bench} Maven profile puts RocksDB on the classpath, on RocksDB in
 * the same process, and prints the ratios.
 */
package io.basaltdb.bench;
