package io.basaltdb.jdbc.metrics;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.DatabaseStats;
import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.StatementStats;
import io.basaltdb.storage.Storage;
import java.util.ArrayList;
import java.util.List;

/**
 * Every metric of one open database, in one list: what the server serves at {@code /metrics},
 * what its MBean shows and what {@code bin/basalt stats} prints ({@code
 * jdbc-driver/doc/metrics.md} describes each; a test checks that every one is there). The
 * engine's come from {@link DatabaseStats} (embedded databases only: over HBase, HBase's own
 * metrics say what its region servers do); the SQL layer's from {@link StatementStats} and
 * {@link PlannerStats}. Errors are one counter per SQLState met so far, so the list grows.
 */
public final class MetricCatalog {
  private MetricCatalog() {}

  /** The metrics of {@code db} now (errors by the SQLStates met so far). */
  public static List<Metric> of(Storage db) {
    List<Metric> out = new ArrayList<>();
    if (db instanceof Database d) {
      engine(d.stats(), out);
    }
    sql(db, out);
    return out;
  }

  private static void engine(DatabaseStats s, List<Metric> out) {
    out.add(Metric.counter("basalt.writes", "rows written (a write of several rows counts each)",
        s::writes));
    out.add(Metric.counter("basalt.reads", "gets and scans begun", s::reads));
    out.add(Metric.timer("basalt.wal.sync", "write-ahead log fsyncs (group commit: one for"
        + " many writes) and their time", s::walSyncs, s::walSyncNanos));
    out.add(Metric.counter("basalt.wal.written.bytes", "bytes appended to the write-ahead log",
        s::walBytes));
    out.add(Metric.gauge("basalt.wal.segments", "write-ahead log segments on disk",
        s::walSegments));
    out.add(Metric.gauge("basalt.memstore.bytes", "bytes held in memstores", s::memstoreBytes));
    out.add(Metric.gauge("basalt.memstore.limit.bytes", "memstore bytes past which writes wait"
        + " for a flush", s::memstoreLimitBytes));
    out.add(Metric.timer("basalt.write.stalls", "writes that waited for memstore room, and"
        + " their wait", s::writeStalls, s::writeStallNanos));
    out.add(Metric.timer("basalt.flushes", "memstore flushes to block files, and their time",
        s::flushes, s::flushNanos));
    out.add(Metric.counter("basalt.flushed.bytes", "bytes of block files written by flushes",
        s::flushedBytes));
    out.add(Metric.timer("basalt.compactions", "compactions (minor and major), and their time",
        s::compactions, s::compactionNanos));
    out.add(Metric.counter("basalt.compactions.major", "major compactions",
        s::majorCompactions));
    out.add(Metric.counter("basalt.compacted.bytes", "bytes of block files read by"
        + " compactions", s::compactedBytes));
    out.add(Metric.gauge("basalt.compaction.backlog", "regions whose files the compaction"
        + " policy would merge now", s::compactionBacklog));
    out.add(Metric.gauge("basalt.background.tasks", "flushes, compactions and splits queued"
        + " or running", s::backgroundTasks));
    out.add(Metric.counter("basalt.block.cache.hits", "block reads served by the block cache",
        s::blockCacheHits));
    out.add(Metric.counter("basalt.block.cache.misses", "block reads the block cache missed",
        s::blockCacheMisses));
    out.add(Metric.ratio("basalt.block.cache.hit.ratio", "hits / (hits + misses) since the"
        + " database opened (0 before any block read)", () -> {
          long h = s.blockCacheHits();
          long all = h + s.blockCacheMisses();
          return all == 0 ? 0 : (double) h / all;
        }));
    out.add(Metric.counter("basalt.block.cache.evictions", "blocks evicted from the block"
        + " cache", s::blockCacheEvictions));
    out.add(Metric.gauge("basalt.block.cache.bytes", "bytes of blocks cached",
        s::blockCacheBytes));
    out.add(Metric.gauge("basalt.block.cache.capacity.bytes", "the block cache's capacity",
        s::blockCacheCapacityBytes));
    out.add(Metric.gauge("basalt.regions", "open regions", s::regions));
    out.add(Metric.counter("basalt.splits", "region splits", s::splits));
    out.add(Metric.gauge("basalt.store.files", "block files of the open regions",
        s::storeFiles));
    out.add(Metric.gauge("basalt.store.file.bytes", "bytes of those block files",
        s::storeFileBytes));
    out.add(Metric.gauge("basalt.snapshots.open", "read snapshots held (transactions,"
        + " statements)", s::openSnapshots));
  }

  private static void sql(Storage db, List<Metric> out) {
    StatementStats st = StatementStats.of(db);
    PlannerStats planner = PlannerStats.of(db);
    out.add(Metric.gauge("basalt.connections", "open JDBC connections to the database in this"
        + " process (a server's remote connections among them)", st.connections::sum));
    for (StatementStats.Kind k : StatementStats.Kind.values()) {
      out.add(Metric.counter("basalt.statements", "statements run, by kind (query, dml, ddl,"
          + " other)", () -> st.statements(k)).withTag("kind", k.name().toLowerCase(java.util.Locale.ROOT)));
    }
    out.add(Metric.timer("basalt.executions", "plan executions (queries and data changes),"
        + " timed from their start to their last row or close", st.executions::sum,
        st.executionNanos::sum));
    out.add(Metric.counter("basalt.statements.slow", "executions at least as long as their"
        + " connection's slowStatementMillis (each one line in the slow-statement log)",
        st.slowStatements::sum));
    for (String state : st.errors().keySet()) {
      out.add(Metric.counter("basalt.statement.errors", "statements failed, by SQLState",
          () -> st.errors(state)).withTag("sqlstate", state));
    }
    out.add(Metric.counter("basalt.plan.cache.hits", "statements whose plan was found in the"
        + " plan cache", planner.planCacheHits::get));
    out.add(Metric.counter("basalt.plan.cache.misses", "statements planned anew",
        planner.planCacheMisses::get));
    out.add(Metric.gauge("basalt.plan.cache.plans", "plans the plan cache holds",
        planner::planCacheSize));
  }
}
