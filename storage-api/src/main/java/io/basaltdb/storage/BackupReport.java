package io.basaltdb.storage;

/**
 * What an online backup wrote ({@link Storage#backup}): its directory and cut (the sequence id
 * of the last write in it), how many files and bytes it holds, how its block files got there
 * (hard-linked from the database, reused from the previous backup, or copied), how long writers
 * were held at the cut and how long the whole backup took.
 */
public record BackupReport(String directory, long cutSequence, int files, long bytes,
    int linked, int reused, int copied, long copiedBytes, long writesHeldMicros, long millis) {}
