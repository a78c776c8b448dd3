package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.rel.BasaltToEnumerableConverter;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/** Basalt subtrees become enumerable through {@link BasaltToEnumerableConverter}. */
final class ToEnumerableRule extends ConverterRule {
  ToEnumerableRule(Config config) {
    super(config);
  }

  @Override
  public RelNode convert(RelNode rel) {
    return new BasaltToEnumerableConverter(rel.getCluster(),
        rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel);
  }
}
