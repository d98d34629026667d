package org.lockspi.tck;

/**
 * The contracts a provider must meet within one JVM against a healthy server: discovery, exclusion,
 * reentrancy, timeouts, read-write, semaphore, hygiene, bad input. Each test is named after its rule in
 * {@code docs/spec.md}.
 */
public interface CoreContracts extends DiscoveryContracts, NameContracts, MutualExclusionContracts,
        StockScenarioContracts, ReentrancyContracts, TimeoutContracts, ReadWriteContracts, ReadWriteDowngradeContracts,
        SemaphoreContracts, NonReentrantMutexContracts, HygieneContracts, FeatureAbsenceContracts, AsyncContracts {
}
