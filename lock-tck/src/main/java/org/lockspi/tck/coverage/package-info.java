/**
 * The kit's coverage matrix: every rule against every lock kind ({@link org.lockspi.tck.coverage.KindColumn}) and
 * queue shape ({@link org.lockspi.tck.coverage.QueueShape}), each cell tested, tested by another rule, or not
 * applicable with its reason, read from the annotations on the contract tests
 * ({@link org.lockspi.tck.coverage.Covers}, {@link org.lockspi.tck.coverage.CoveredBy},
 * {@link org.lockspi.tck.coverage.Inapplicable}) by {@link org.lockspi.tck.coverage.CoverageMatrix}.
 */
package org.lockspi.tck.coverage;
