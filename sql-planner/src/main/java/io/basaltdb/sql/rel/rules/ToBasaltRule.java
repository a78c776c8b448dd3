package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.rel.BasaltRel;
import io.basaltdb.sql.rel.BasaltScan;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/** A logical scan, with all pushed into it, as the Basalt-convention scan that runs. */
final class ToBasaltRule extends ConverterRule {
  ToBasaltRule(Config config) {
    super(config);
  }

  @Override
  public RelNode convert(RelNode rel) {
    BasaltScan scan = (BasaltScan) rel;
    return scan.with(scan.spec(), scan.getTraitSet().replace(BasaltRel.CONVENTION));
  }
}
