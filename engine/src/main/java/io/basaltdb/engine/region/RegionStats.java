package io.basaltdb.engine.region;

/** A region's size and activity, for tools and for the SQL layer's parallel scans. */
public record RegionStats(String name, long memstoreBytes, long fileCount, long fileBytes,
    long reads, long writes, long blockedWrites) {}
