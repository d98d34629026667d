package org.lockspi.tck;

/**
 * The contracts about processes and failures: exclusion across JVMs, crash release, lease loss, fencing
 * across restarts, fairness and herd-free waiting, unreachable servers.
 */
public interface FailureContracts extends TckContext {
}
