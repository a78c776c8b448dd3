package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Seeds;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short crash campaign for CI ({@link CrashCampaign}); {@code -Dbasalt.campaign.rounds=N}
 * runs a longer one, {@code -Dbasalt.seed=S} replays one.
 */
class CrashCampaignTest {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void noAcknowledgedWriteLostAcrossPowerLosses() throws Exception {
    long seed = Seeds.seed("CrashCampaignTest");
    int rounds = Integer.getInteger("basalt.campaign.rounds", 40);
    CrashCampaign c = new CrashCampaign(seed, tmp);
    long start = System.nanoTime();
    c.run(rounds);
    c.finish();
    System.out.println(c.summary() + String.format(" in %.1f s",
        (System.nanoTime() - start) / 1e9));
    assertTrue(c.acknowledged > rounds, "the writer made progress: " + c.acknowledged);
  }
}
