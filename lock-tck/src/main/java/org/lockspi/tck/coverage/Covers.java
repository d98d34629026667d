package org.lockspi.tck.coverage;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The lock kinds and queue shapes a contract's test exercises, when the provider declares them: the cells of its
 * row in the kit's coverage matrix that it tests. Every contract test carries one (an empty one for a rule that
 * takes no lock); every cell it leaves out is explained by an {@link Inapplicable} (on the test or on its contract
 * interface, for the whole group) or by a {@link CoveredBy}. The kit's self-test fails on a cell neither tested nor
 * explained, and the conformance report prints the matrix.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Covers {
    /** @return the kinds the test acquires and checks the rule for */
    KindColumn[] kinds();

    /** @return the queue shapes its waiting acquisitions form */
    QueueShape[] shapes() default {};
}
