package org.lockspi.tck;

/**
 * The contracts about processes and failures (§10 to §16, §19): exclusion across JVMs, crash release, lease loss,
 * fencing tokens across restarts and parent removal, fairness and herd-free waiting, unreachable servers,
 * connection suspension, the death of an ensemble's leader or follower.
 */
public interface FailureContracts extends CrossProcessExclusionContracts, CrashReleaseContracts,
        LeaseLossContracts, FencingTokenContracts, FairnessContracts, HerdFreeContracts,
        UnreachableServerContracts, ConnectionSuspensionContracts, EnsembleFailureContracts {
}
