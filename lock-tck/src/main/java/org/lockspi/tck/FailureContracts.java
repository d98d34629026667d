package org.lockspi.tck;

/**
 * The contracts about processes and failures (§10 to §18): exclusion across JVMs, crash release, lease loss,
 * fencing tokens across restarts and parent removal, fairness and herd-free waiting, unreachable servers,
 * connection suspension, recovery after a restart, lease validity; and the faults of §18 (partition, pause,
 * server restart).
 */
public interface FailureContracts extends CrossProcessExclusionContracts, CrashReleaseContracts,
        LeaseLossContracts, FencingTokenContracts, FairnessContracts, HerdFreeContracts,
        UnreachableServerContracts, ConnectionSuspensionContracts, RestartRecoveryContracts,
        LeaseValidityContracts, FaultContracts {
}
