package org.lockspi.tck;

/**
 * The contracts a provider must meet within one JVM against a healthy server: discovery, exclusion,
 * reentrancy, timeouts, read-write, semaphore, hygiene, bad input, inspection. Each test is named after its rule in
 * {@code docs/spec.md}.
 */
public interface CoreContracts extends DiscoveryContracts, NameContracts, AnyNameContracts, MutualExclusionContracts,
        StockScenarioContracts, ReentrancyContracts, TimeoutContracts, ReadWriteContracts, ReadWriteDowngradeContracts,
        SemaphoreContracts, NonReentrantMutexContracts, HygieneContracts, FeatureAbsenceContracts,
        ExecuteLockedContracts, InspectionContracts, AsyncContracts, StoppedWorkContracts, MultiLockContracts {
}
