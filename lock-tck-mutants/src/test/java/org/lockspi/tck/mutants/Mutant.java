package org.lockspi.tck.mutants;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;

/**
 * The catalogue: broken variants of the real providers, each with one plausible defect, and the rules that must
 * kill it (every one of them must fail by a contract assertion); for some, the older rules about their defect that
 * they pass, to show what the newer rule adds. docs/spec.md, "How the kit is checked", lists it.
 */
enum Mutant {
    REDIS_BUSY_AS_GRANTED(MutantRuns.RedisBusyAsGranted.class, "redis-baseline",
            "the acquire script's busy reply (nil) taken for a grant", "§3.1"),
    ZKCLIENT_MUTEX_AS_READ(MutantRuns.ZkClientMutexAsRead.class, "zkclient",
            "the mutex served by the read recipe", "§3.1"),
    REDIS_CLIENT_REENTRANT(MutantRuns.RedisClientReentrant.class, "redis-baseline",
            "reentrant per client, not per acquisition: a second permit asked while the service holds one re-enters it "
                    + "(on the mutex the engine's local queue keeps a service's second acquisition from the backend, "
                    + "§23)", "§7.3"),
    RAW_DEADLINE_WHOLE_SECONDS(MutantRuns.RawDeadlineWholeSeconds.class, "zookeeper-raw",
            "the deadline rounded up to whole seconds before it reaches the backend", "§5.2", "§5.3"),
    ZKCLIENT_LEAK_ON_TIMEOUT(MutantRuns.ZkClientLeakOnTimeout.class, "zkclient",
            "a timed-out or interrupted acquisition does not delete its node (only release() deletes)", "§5.4"),
    REDIS_RETRIES_INTERRUPT(MutantRuns.RedisRetriesInterrupt.class, "redis-baseline",
            "an InterruptedException taken for a spurious wake-up: the wait goes on", "§5.5"),
    CURATOR_READ_AS_WRITE(MutantRuns.CuratorReadAsWrite.class, "curator",
            "the read half served by the write recipe: readers exclude each other", "§6.1"),
    RAW_WRITE_AS_READ(MutantRuns.RawWriteAsRead.class, "zookeeper-raw",
            "the write half served by the read recipe: writers share", "§6.2"),
    ZKCLIENT_DOWNGRADE_IGNORED(MutantRuns.ZkClientDowngradeIgnored.class, "zkclient",
            "heldWrite ignored: a downgrading read queues behind its own write", "§6.3"),
    REDIS_SEMAPHORE_OFF_BY_ONE(MutantRuns.RedisSemaphoreOffByOne.class, "redis-baseline",
            "permits off by one (> for >=): N + 1 holders", "§7.1"),
    CURATOR_SEMAPHORE_ONE_PERMIT(MutantRuns.CuratorSemaphoreOnePermit.class, "curator",
            "the permits not passed on: every semaphore has one", "§7.1"),
    RAW_RELEASE_FORGETS_DELETE(MutantRuns.RawReleaseForgetsDelete.class, "zookeeper-raw",
            "release() forgets the delete: the node stays until the session ends", "§8.1"),
    CURATOR_CLOSE_FORGETS_CLIENT(MutantRuns.CuratorCloseForgetsClient.class, "curator",
            "close() forgets to close the client: its session and locks outlive the service", "§8.4"),
    ZKCLIENT_MUTABLE_FEATURES(MutantRuns.ZkClientMutableFeatures.class, "zkclient",
            "features() returns the provider's own modifiable set", "§9.8"),
    REDIS_PROCESS_LOCAL_KEYS(MutantRuns.RedisProcessLocalKeys.class, "redis-baseline",
            "keys namespaced by the process (pid in the prefix): other JVMs are not excluded", "§10.1"),
    RAW_PERSISTENT_NODES(MutantRuns.RawPersistentNodes.class, "zookeeper-raw",
            "lock nodes created PERSISTENT_SEQUENTIAL, not EPHEMERAL_SEQUENTIAL", "§11.1"),
    RAW_LOSS_UNREPORTED(MutantRuns.RawLossUnreported.class, "zookeeper-raw",
            "loss never reported: isLost() false, no deadlines, leaseLost not passed on", "§12.1", "§17.2"),
    REDIS_RELEASE_WITHOUT_OWNER_CHECK(MutantRuns.RedisReleaseWithoutOwnerCheck.class, "redis-baseline",
            "the exclusive release a plain DEL, without the owner check: a late release deletes the next holder's key",
            "§12.2", "§12.3"),
    ZKCLIENT_SEQUENCE_TOKEN(MutantRuns.ZkClientSequenceToken.class, "zkclient",
            "the fencing token from the sequence suffix, not the czxid", "§13.4"),
    RAW_TOKEN_32_BITS(MutantRuns.RawToken32Bits.class, "zookeeper-raw",
            "the fencing token cut to 32 bits (the low word of the czxid)", "§13.6"),
    REDIS_CLAIMS_FAIR(MutantRuns.RedisClaimsFair.class, "redis-baseline",
            "FAIR declared, while waiters poll with a jittered back-off", "§14.1"),
    RAW_WATCHES_CHILDREN(MutantRuns.RawWatchesChildren.class, "zookeeper-raw",
            "a waiter watches the lock's children instead of its predecessor (a herd)", "§14.2"),
    CURATOR_OPEN_RETRIES(MutantRuns.CuratorOpenRetries.class, "curator",
            "open() retries an unreachable server 20 times instead of failing at its connect timeout", "§15.1"),
    REDIS_STALE_CONNECTION_SURFACES(MutantRuns.RedisStaleConnectionSurfaces.class, "redis-baseline",
            "a pooled connection broken by a restart not replaced: the first call after it fails", "§16.2"),
    RAW_RESTORE_UNREPORTED(MutantRuns.RawRestoreUnreported.class, "zookeeper-raw",
            "the reconnection (connectionRestored) not passed on: leases stay UNCERTAIN", "§16.1"),
    REDIS_VALIDITY_UNTRACKED(MutantRuns.RedisValidityUntracked.class, "redis-baseline",
            "confirmedUntilNanos()/validUntilNanos() not tracked (the SPI defaults)", "§18.3"),
    // a lease time per acquisition (issue #28)
    REDIS_LEASE_TIME_DROPPED(MutantRuns.RedisLeaseTimeDropped.class, "redis-baseline",
            "LEASE_TIME declared, the lease time dropped on the way to the server: renewed past its end", "§26.1"),
    REDIS_LEASE_TIME_CLIENT_ONLY(MutantRuns.RedisLeaseTimeClientOnly.class, "redis-baseline",
            "the lease time kept by the holder alone (LOST at the end), the server asked without it: the key outlives "
            + "the end, as a ZooKeeper node would", "§26.1"),
    // revocation (issue #28)
    REDIS_REVOKE_FREES_FROM_THE_REVOKER(MutantRuns.RedisRevokeFreesFromTheRevoker.class, "redis-baseline",
            "REVOCATION with the holder's key deleted by the revoker, no request written: the next waiter holds "
            + "while the revoked lease still reads HELD", "§27.1"),
    REDIS_REVOCABLE_ALWAYS(MutantRuns.RedisRevocableAlways.class, "redis-baseline",
            "every acquisition sent revocable: a holder that did not opt in is revoked", "§27.3"),
    // one kind or one waiting path only (issue #23: rules extended to every kind and queue shape)
    REDIS_READER_MARK_LEFT(MutantRuns.RedisReaderMarkLeft.class, "redis-baseline",
            "a reader that gives up (timeout) leaves its waiter mark, to expire on its own", "§5.4", "§23.6"),
    REDIS_READ_DEFAULT_LEASE(MutantRuns.RedisReadDefaultLease.class, "redis-baseline",
            "the read half takes the default lease time (30 s), not the URI's: a crashed reader's entry and a crashed "
            + "waiting reader's mark outlive it, and a reader learns of a loss only at its renewal", "§11.1", "§11.2",
            "§12.1"),
    REDIS_SHARED_LOSS_UNREPORTED(MutantRuns.RedisSharedLossUnreported.class, "redis-baseline",
            "the loss of a shared lease (a reader, a permit) not reported; the exclusive kinds report theirs",
            "§12.1"),
    REDIS_FAIR_NRM_UNQUEUED(MutantRuns.RedisFairNrmUnqueued.class, "redis-fair",
            "the non-reentrant mutex skips the fair queue (the baseline's script): its waiters race when woken",
            "§14.5"),
    RAW_SEMAPHORE_HERD(MutantRuns.RawSemaphoreHerd.class, "zookeeper-raw",
            "the semaphore's internal-lock waiters watch the children of locks, not their predecessor (a herd on "
            + "one waiting path)", "§14.6"),
    REDIS_RENEWAL_SKIPS_READERS(MutantRuns.RedisRenewalSkipsReaders.class, "redis-baseline",
            "the watchdog does not renew read leases: the readers' entries expire after one lease time", "§17.4"),
    // the bounds of a cut-off client (issue #23: every stated bound measured)
    RAW_NO_CONFIRMATION_THRESHOLD(MutantRuns.RawNoConfirmationThreshold.class, "zookeeper-raw",
            "no confirmation threshold: a cut-off lease reads HELD until the disconnect event (2/3 of the session "
            + "timeout)", "§17.5"),
    REDIS_CLOSE_WAITS_PER_LEASE(MutantRuns.RedisCloseWaitsPerLease.class, "redis-baseline",
            "close() deletes the leases one by one, each waiting its socket timeout on a silent server", "§17.5"),
    // single messages lost or late (§24)
    RAW_CREATES_AGAIN_BLIND(MutantRuns.RawCreatesAgainBlind.class, "zookeeper-raw",
            "a create that met a connection loss made again without looking for the node the lost one made: an "
                    + "orphan ahead of the client's own node", "§24.1"),
    RAW_LOST_DELETE_SWEPT_LATE(MutantRuns.RawLostDeleteSweptLate.class, "zookeeper-raw",
            "a delete that met a connection loss left to a sweep a session timeout and a second later, not sent again "
                    + "when the connection returns", "§24.2"),
    REDIS_VALIDITY_FROM_ANSWER(MutantRuns.RedisValidityFromAnswer.class, "redis-baseline",
            "a lease's validity counted from when its renewal's answer came, not from when it was sent", "§17.5",
            "§24.3"),
    RAW_WATCH_LOSS_IGNORED(MutantRuns.RawWatchLossIgnored.class, "zookeeper-raw",
            "a watch whose getData met a connection loss taken as set: the waiter waits for a wake-up that never "
                    + "comes", "§24.4"),
    REDIS_CLOSE_ENDS_ONLY_CURRENT(MutantRuns.RedisCloseEndsOnlyCurrent.class, "redis-baseline",
            "after a lost connection a fresh client, the old one kept for its leases; close() closes the current one "
                    + "only", "§24.5"),
    REDIS_KEY_CUT(MutantRuns.RedisKeyCut.class, "redis-baseline",
            "the key cut to its first 255 characters (a VARCHAR(255) column)", List.of("§2.8", "§2.9", "§2.10"),
            "§2.11"),
    RAW_LONG_KEY_HASHED(MutantRuns.RawLongKeyHashed.class, "zookeeper-raw",
            "a key of more than 100 characters shortened to its first 64 and its String.hashCode()",
            List.of("§2.8", "§2.9", "§2.10"), "§2.12"),
    CURATOR_KEYS_WITHOUT_CASE(MutantRuns.CuratorKeysWithoutCase.class, "curator",
            "keys compared without case: the first spelling stands for the others (a case-insensitive collation)",
            List.of("§2.8", "§2.10"), "§2.13", "§2.9"),
    ZKCLIENT_SLASH_AS_DOT(MutantRuns.ZkClientSlashAsDot.class, "zkclient",
            "the tree flattened: '/' in a key replaced by '.'", List.of("§2.8", "§2.9", "§2.10"), "§2.14"),
    REDIS_TRAILING_BLANKS_TRIMMED(MutantRuns.RedisTrailingBlanksTrimmed.class, "redis-baseline",
            "the name behind the key stored with its trailing blanks trimmed (a PAD SPACE collation)",
            List.of("§2.8", "§2.9", "§2.10"), "§2.14");

    final Class<? extends LockProviderTck> run;
    final String realProvider;
    final String defect;
    final List<String> rules;
    /** Rules the mutant passes: older rules about its defect that it shows to miss it. */
    final List<String> survives;

    Mutant(Class<? extends LockProviderTck> run, String realProvider, String defect, String... rules) {
        this(run, realProvider, defect, List.of(), rules);
    }

    Mutant(Class<? extends LockProviderTck> run, String realProvider, String defect, List<String> survives,
           String... rules) {
        this.run = run;
        this.realProvider = realProvider;
        this.defect = defect;
        this.rules = List.of(rules);
        this.survives = survives;
    }

    /** @return the mutant provider, as its run names it */
    LockProvider provider() {
        try {
            return run.getDeclaredConstructor().newInstance().provider();
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
            throw new IllegalStateException("cannot make the run " + run.getName() + ": " + cause, cause);
        }
    }

    @Override
    public String toString() {
        return provider().name() + " (" + realProvider + ")";
    }
}
