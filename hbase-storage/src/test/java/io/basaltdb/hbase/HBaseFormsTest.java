package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Scan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Conversions to HBase's request shapes that need no cluster. */
class HBaseFormsTest {
  /**
   * A scan that does not say how many rows a round trip brings leaves HBase's default (calls
   * filled up to their size limit); a fixed 100 made a 1M-row COUNT(*) 10,000 round trips
   * (9.7 s, 1.8 s without).
   */
  @Test
  void rowsPerRoundTripOnlyWhenAsked() throws Exception {
    org.apache.hadoop.hbase.client.Scan defaults = new org.apache.hadoop.hbase.client.Scan();
    assertEquals(defaults.getCaching(), HBaseForms.scan(new Scan()).getCaching());
    assertEquals(10, HBaseForms.scan(new Scan().setCaching(10)).getCaching());
  }

  /**
   * The SQL layer writes a statement's rows ASYNC and then calls {@code Storage.sync()}, which
   * over HBase has nothing to sync: every write must be in its region server's WAL, synced, when
   * acknowledged (ASYNC_WAL is acknowledged before its sync and may be lost in a crash).
   */
  @Test
  void everyWriteButSkipIsSyncedBeforeHBaseAcknowledgesIt() throws Exception {
    var sync = org.apache.hadoop.hbase.client.Durability.SYNC_WAL;
    byte[] f = {'f'};
    for (Durability d : List.of(Durability.SYNC, Durability.ASYNC)) {
      Put p = new Put(new byte[] {1});
      p.addColumn(f, f, new byte[] {2});
      p.setDurability(d);
      assertEquals(sync, HBaseForms.put(p).getDurability(), d.toString());
      Delete del = new Delete(new byte[] {1});
      del.setDurability(d);
      assertEquals(sync, HBaseForms.delete(del).getDurability(), d.toString());
    }
    assertEquals(org.apache.hadoop.hbase.client.Durability.SKIP_WAL,
        HBaseForms.durability(Durability.SKIP));
  }
}
