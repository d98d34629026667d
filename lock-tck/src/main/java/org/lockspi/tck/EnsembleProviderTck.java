package org.lockspi.tck;

/**
 * The ensemble contracts (§19) alone, for a provider's second TCK class: it names the provider as for
 * {@link LockProviderTck} and starts a backend with {@link TckBackend.Capability#ENSEMBLE}, which is started once
 * for the class and shared by its tests. Every other contract is reported as disabled here, because the
 * provider's main TCK class runs it against a single server, and reports §19 as disabled ({@code ContractScope}):
 *
 * <pre>{@code
 * class CuratorEnsembleTckTest extends EnsembleProviderTck {
 *     public LockProvider provider() { return new CuratorLockProvider(); }
 *     protected TckBackend startBackend() { return ZooKeeperEnsembleBackend.start(); }
 *     protected String clientParameters() { return "sessionTimeout=3s&connectTimeout=1s"; }
 * }
 * }</pre>
 */
public abstract class EnsembleProviderTck extends LockProviderTck {
}
