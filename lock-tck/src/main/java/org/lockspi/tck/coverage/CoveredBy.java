package org.lockspi.tck.coverage;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Cells of a rule's row tested by another rule that states the same promise for that kind or shape (§3.1 says it
 * of the mutex, §7.7 of the non-reentrant mutex). The kit's self-test checks that the rule named covers those
 * cells itself, so a reference cannot point at nothing.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(CoveredBy.List.class)
public @interface CoveredBy {
    /** @return the rule that tests these cells, as its test's name starts ({@code "§7.7"}) */
    String value();

    /** @return the kinds it tests for this rule */
    KindColumn[] kinds() default {};

    /** @return the queue shapes it tests for this rule */
    QueueShape[] shapes() default {};

    /** The container of repeated {@link CoveredBy}s. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface List {
        /** @return the annotations */
        CoveredBy[] value();
    }
}
