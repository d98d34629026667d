package org.lockspi.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What to look at in a provider when the rule of the annotated contract fails, as the Reactive Streams TCK says it
 * per rule. The kit prints it under the failure in the console and in the conformance report, so that a provider's
 * author reads, beside the broken promise, where such a break usually comes from.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Diagnosis {
    /** @return where to look in the provider, in a sentence or two */
    String value();
}
