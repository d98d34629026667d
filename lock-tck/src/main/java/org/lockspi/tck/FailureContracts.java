package org.lockspi.tck;

/**
 * The contracts about processes and failures (§10 to §20): exclusion across JVMs, crash release, lease loss,
 * fencing tokens across restarts and parent removal, fairness and herd-free waiting, unreachable servers,
 * connection suspension, recovery after a restart, failing fast while disconnected, lease validity; the faults of §18 (partition, pause, server
 * restart), the death of an ensemble's leader or follower (§19), leader election through crashes, session
 * loss and partitions (§20), and faults finer than a connection: one lost request or answer, a replaced session (§24); a lease time per acquisition (§26) and revocation (§27).
 */
public interface FailureContracts extends CrossProcessExclusionContracts, CrashReleaseContracts,
        LeaseLossContracts, FencingTokenContracts, FairnessContracts, HerdFreeContracts,
        UnreachableServerContracts, ConnectionSuspensionContracts, RestartRecoveryContracts,
        FailFastContracts,
        LeaseValidityContracts, FaultContracts, EnsembleFailureContracts, LeadershipContracts, LeaseTimeContracts,
        RequestFaultContracts, RevocationContracts {
}
