package org.lockspi.tck.mutants;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;

/**
 * The kit's class for each mutant, with the client parameters and bounds of the real provider's own TCK class
 * (short sessions and leases). Their names do not end in {@code Test}: {@link MutantsTest} runs each through the
 * launcher, selecting the rules that must kill it.
 */
final class MutantRuns {
    private MutantRuns() {
    }

    /** On the shared ZooKeeper, with the raw and ZkClient providers' parameters. */
    abstract static class OnZooKeeper extends LockProviderTck {
        @Override
        protected TckBackend startBackend() {
            return SharedBackends.zooKeeper();
        }

        @Override
        protected String clientParameters() {
            return "sessionTimeout=4s&connectTimeout=5s";
        }

        @Override
        public Duration leaseSpan() {
            return Duration.ofSeconds(4);
        }

        @Override
        public Duration crashReleaseBound() {
            return Duration.ofSeconds(4 + 6);
        }

        @Override
        public Duration releaseBound() {
            return Duration.ofSeconds(2);
        }
    }

    /** On the shared ZooKeeper, with the Curator provider's parameters. */
    abstract static class OnCurator extends OnZooKeeper {
        @Override
        protected String clientParameters() {
            return "sessionTimeout=3s&connectTimeout=1s&retryBaseSleep=50ms&retryMaxRetries=2";
        }

        @Override
        public Duration leaseSpan() {
            return Duration.ofSeconds(3);
        }

        @Override
        public Duration crashReleaseBound() {
            return Duration.ofSeconds(3 + 5);
        }

        @Override
        public Duration releaseBound() {
            return Duration.ofSeconds(1);
        }
    }

    /** On the shared Redis, with the Redis provider's parameters (a 3 s lease). */
    abstract static class OnRedis extends LockProviderTck {
        @Override
        protected TckBackend startBackend() {
            return SharedBackends.redis();
        }

        @Override
        protected String clientParameters() {
            return "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
        }

        @Override
        public Duration leaseSpan() {
            return Duration.ofSeconds(3);
        }

        @Override
        public Duration crashReleaseBound() {
            return Duration.ofSeconds(6);
        }

        @Override
        protected Map<String, String> unverifiedRulesAllowed() {
            return Map.of("§13.6", "Redis counters start at 0");
        }
    }

    // ---- zookeeper-raw ----

    static final class RawSemaphoreHerd extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.SemaphoreHerd();
        }
    }

    static final class RawNoConfirmationThreshold extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.NoConfirmationThreshold();
        }
    }

    static final class RawDeadlineWholeSeconds extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.DeadlineWholeSeconds();
        }
    }

    static final class RawWriteAsRead extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.WriteAsRead();
        }
    }

    static final class RawReleaseForgetsDelete extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.ReleaseForgetsDelete();
        }
    }

    static final class RawPersistentNodes extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.PersistentNodes();
        }
    }

    static final class RawLossUnreported extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.LossUnreported();
        }
    }

    static final class RawToken32Bits extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.Token32Bits();
        }
    }

    static final class RawWatchesChildren extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.WatchesChildren();
        }
    }

    static final class RawRestoreUnreported extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.RestoreUnreported();
        }
    }

    static final class RawCreatesAgainBlind extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.CreatesAgainBlind();
        }
    }

    static final class RawLostDeleteSweptLate extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.LostDeleteSweptLate();
        }
    }

    static final class RawWatchLossIgnored extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new RawMutants.WatchLossIgnored();
        }
    }

    // ---- zkclient ----

    static final class ZkClientMutexAsRead extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new ZkClientMutants.MutexAsRead();
        }
    }

    static final class ZkClientLeakOnTimeout extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new ZkClientMutants.LeakOnTimeout();
        }
    }

    static final class ZkClientDowngradeIgnored extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new ZkClientMutants.DowngradeIgnored();
        }
    }

    static final class ZkClientMutableFeatures extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new ZkClientMutants.MutableFeatures();
        }
    }

    static final class ZkClientSequenceToken extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new ZkClientMutants.SequenceToken();
        }
    }

    // ---- curator ----

    static final class CuratorReadAsWrite extends OnCurator {
        @Override
        public LockProvider provider() {
            return new CuratorMutants.ReadAsWrite();
        }
    }

    static final class CuratorSemaphoreOnePermit extends OnCurator {
        @Override
        public LockProvider provider() {
            return new CuratorMutants.SemaphoreOnePermit();
        }
    }

    static final class CuratorCloseForgetsClient extends OnCurator {
        @Override
        public LockProvider provider() {
            return new CuratorMutants.CloseForgetsClient();
        }

        @AfterAll
        void closeForgotten() {
            CuratorMutants.CloseForgetsClient.closeForgotten();
        }
    }

    static final class CuratorOpenRetries extends OnCurator {
        @Override
        public LockProvider provider() {
            return new CuratorMutants.OpenRetries();
        }
    }

    // ---- redis-baseline ----

    static final class RedisBusyAsGranted extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.BusyAsGranted();
        }
    }

    static final class RedisClientReentrant extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ClientReentrant();
        }
    }

    static final class RedisRetriesInterrupt extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.RetriesInterrupt();
        }
    }

    static final class RedisSemaphoreOffByOne extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.SemaphoreOffByOne();
        }
    }

    static final class RedisProcessLocalKeys extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ProcessLocalKeys();
        }
    }

    static final class RedisClaimsFair extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ClaimsFair();
        }
    }

    static final class RedisLeaseTimeDropped extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.LeaseTimeDropped();
        }
    }

    static final class RedisLeaseTimeClientOnly extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.LeaseTimeClientOnly();
        }
    }

    static final class RedisRevokeFreesFromTheRevoker extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.RevokeFreesFromTheRevoker();
        }
    }

    static final class RedisRevocableAlways extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.RevocableAlways();
        }
    }

    static final class RedisValidityUntracked extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ValidityUntracked();
        }
    }

    static final class RedisReleaseWithoutOwnerCheck extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ReleaseWithoutOwnerCheck();
        }
    }

    static final class RedisStaleConnectionSurfaces extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.StaleConnectionSurfaces();
        }
    }

    static final class RedisReaderMarkLeft extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.ReaderMarkLeft();
        }
    }

    static final class RedisReadDefaultLease extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.ReadDefaultLease();
        }
    }

    static final class RedisSharedLossUnreported extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.SharedLossUnreported();
        }
    }

    static final class RedisFairNrmUnqueued extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.FairNonReentrantUnqueued();
        }
    }

    static final class RedisRenewalSkipsReaders extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.RenewalSkipsReaders();
        }
    }

    static final class RedisCloseWaitsPerLease extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisKindMutants.CloseWaitsPerLease();
        }
    }

    static final class RedisValidityFromAnswer extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.ValidityFromAnswer();
        }
    }

    static final class RedisCloseEndsOnlyCurrent extends OnRedis {
        @Override
        public LockProvider provider() {
            return new RedisMutants.CloseEndsOnlyCurrent();
        }

        @AfterAll
        void closeForgotten() {
            RedisMutants.CloseEndsOnlyCurrent.closeForgotten();
        }
    }

    // ---- names: keys derived below the engine's key (NameMutants) ----

    static final class RedisKeyCut extends OnRedis {
        @Override
        public LockProvider provider() {
            return new NameMutants.RedisKeyCut();
        }
    }

    static final class RawLongKeyHashed extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new NameMutants.RawLongKeyHashed();
        }
    }

    static final class CuratorKeysWithoutCase extends OnCurator {
        @Override
        public LockProvider provider() {
            return new NameMutants.CuratorKeysWithoutCase();
        }
    }

    static final class ZkClientSlashAsDot extends OnZooKeeper {
        @Override
        public LockProvider provider() {
            return new NameMutants.ZkClientSlashAsDot();
        }
    }

    static final class RedisTrailingBlanksTrimmed extends OnRedis {
        @Override
        public LockProvider provider() {
            return new NameMutants.RedisTrailingBlanksTrimmed();
        }
    }
}
