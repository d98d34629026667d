package org.lockspi.tck.mutants;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.curator.CuratorLockProvider;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.spi.LockKeys;
import org.lockspi.zkclient.ZkClientLockProvider;
import org.lockspi.zookeeper.raw.RawZooKeeperLockProvider;

/**
 * Broken variants of the real providers that derive their own key from the engine's ({@link ForwardingProvider#key}),
 * as a provider does that stores it in a column, a path or a key of its own making: each merges some distinct names
 * into one lock, and §2.11 to §2.14 must tell.
 */
public final class NameMutants {
    private NameMutants() {
    }

    /** {@code redis-baseline} with the key cut to its first 255 characters, as a VARCHAR(255) column stores it. */
    public static final class RedisKeyCut extends ForwardingProvider {
        static final int LENGTH = 255;

        /** For ServiceLoader. */
        public RedisKeyCut() {
            super("mutant-redis-key-cut", new RedisLockProvider());
        }

        @Override
        protected String key(String key) {
            return key.length() > LENGTH ? key.substring(0, LENGTH) : key;
        }
    }

    /**
     * {@code zookeeper-raw} with a key of more than 100 characters shortened to its first 64, a '-' and its
     * {@code String.hashCode()} in hex, to keep node paths short.
     */
    public static final class RawLongKeyHashed extends ForwardingProvider {
        /** For ServiceLoader. */
        public RawLongKeyHashed() {
            super("mutant-raw-long-key-hashed", new RawZooKeeperLockProvider());
        }

        @Override
        protected String key(String key) {
            return key.length() > 100 ? key.substring(0, 64) + "-" + Integer.toHexString(key.hashCode()) : key;
        }
    }

    /**
     * {@code curator} with keys compared without case, as a unique index under a case-insensitive collation does: the
     * first spelling of a key stands for every spelling that differs from it only in case.
     */
    public static final class CuratorKeysWithoutCase extends ForwardingProvider {
        /** The first spelling of each key, by its lower case: the "index", shared by every client in this JVM. */
        private static final Map<String, String> FIRST = new ConcurrentHashMap<>();

        /** For ServiceLoader. */
        public CuratorKeysWithoutCase() {
            super("mutant-curator-keys-without-case", new CuratorLockProvider());
        }

        @Override
        protected String key(String key) {
            return FIRST.computeIfAbsent(key.toLowerCase(Locale.ROOT), lower -> key);
        }
    }

    /** {@code zkclient} with the tree flattened: a readable key's '/' replaced by '.', one node per lock. */
    public static final class ZkClientSlashAsDot extends ForwardingProvider {
        /** For ServiceLoader. */
        public ZkClientSlashAsDot() {
            super("mutant-zkclient-slash-as-dot", new ZkClientLockProvider());
        }

        @Override
        protected String key(String key) {
            return key.replace('/', '.');
        }
    }

    /**
     * {@code redis-baseline} storing the name behind the key with its trailing blanks trimmed, as a PAD SPACE
     * collation compares {@code 'a'} and {@code 'a '}.
     */
    public static final class RedisTrailingBlanksTrimmed extends ForwardingProvider {
        /** For ServiceLoader. */
        public RedisTrailingBlanksTrimmed() {
            super("mutant-redis-trailing-blanks-trimmed", new RedisLockProvider());
        }

        @Override
        protected String key(String key) {
            String name = LockKeys.name(key);
            int end = name.length();
            while (end > 1 && name.charAt(end - 1) == ' ') {
                end--;
            }
            return LockKeys.key(name.substring(0, end));
        }
    }
}
