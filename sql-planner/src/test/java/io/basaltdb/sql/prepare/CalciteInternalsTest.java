package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fails loudly when a Calcite upgrade moves a private member Basalt reaches by reflection
 * ({@link CalciteInternals}): in production such a move only turns a fast path off (plans
 * made without Calcite's preparation, batch plans without compiled code, prepare-and-execute
 * without Calcite's configuration), which no other test would notice.
 */
class CalciteInternalsTest {
  @Test
  void everyMemberReachedIsThere() {
    assertEquals(List.of(), CalciteInternals.missing(),
        "Calcite moved what Basalt reaches: mend CalciteInternals for this Calcite");
    assertTrue(CalciteInternals.hasColumnMetadata());
    assertTrue(CalciteInternals.hasConnectionSteps());
  }
}
