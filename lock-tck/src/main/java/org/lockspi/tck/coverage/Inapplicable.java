package org.lockspi.tck.coverage;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Cells of the coverage matrix a rule does not apply to, with the reason: on a contract test for its rule, or on a
 * contract interface for every rule of the group (a test's own {@link Covers} still wins over its group's). The
 * reason is printed once under the matrix, so a shared one (the constants of {@link Why}) is written once.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(Inapplicable.List.class)
public @interface Inapplicable {
    /** @return the kinds the rule does not apply to */
    KindColumn[] kinds() default {};

    /** @return the queue shapes the rule does not apply to */
    QueueShape[] shapes() default {};

    /** @return why: a sentence a provider's author can check against the rule */
    String reason();

    /** The container of repeated {@link Inapplicable}s. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    @interface List {
        /** @return the annotations */
        Inapplicable[] value();
    }
}
