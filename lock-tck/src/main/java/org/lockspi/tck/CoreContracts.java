package org.lockspi.tck;

/**
 * The contracts a provider must meet within one JVM against a healthy server: discovery, exclusion,
 * reentrancy, timeouts, read-write, semaphore, hygiene, bad input.
 */
public interface CoreContracts extends TckContext {
}
