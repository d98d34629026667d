package org.lockspi.redis.recipe;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.lockspi.LockInfo;
import org.lockspi.spi.LockKind;

/**
 * A holder's entry: the value of an exclusive lock key, or a member of a reader or permit set,
 * {@code <owner token>|<fencing token>|<server time ms>} and, for an exclusive key, {@code |<kind letter>}; a
 * revocable acquisition's (spec §27) ends in {@code |r} (a shared one's kind is empty: {@code ||r}). The scripts
 * build it when they grant; release and renewal compare the whole entry (so they stay owner-checked), inspection
 * and revocation read it. An entry written by an older version is the bare owner token, or has no mark.
 *
 * @param owner        the owner token, {@code <client id>:<sequence>}
 * @param fencingToken the fencing token, or -1 if the entry does not say
 * @param sinceMillis  the server time of the grant in ms, or -1 if the entry does not say
 * @param kind         the kind letter, or {@code ""}
 * @param revocable    whether the entry carries the revocable mark
 */
record RedisEntry(String owner, long fencingToken, long sinceMillis, String kind, boolean revocable) {
    /** Kind letters of exclusive entries. */
    static final String MUTEX = "M";
    static final String NON_REENTRANT = "N";
    static final String WRITE = "W";

    /** @return the letter the exclusive script stores for a kind */
    static String letter(LockKind kind) {
        switch (kind) {
            case WRITE:
                return WRITE;
            case NON_REENTRANT_MUTEX:
                return NON_REENTRANT;
            default:
                return MUTEX;
        }
    }

    static RedisEntry parse(String entry) {
        String[] parts = entry.split("\\|", -1);
        if (parts.length < 3) {
            return new RedisEntry(entry, -1, -1, "", false);
        }
        try {
            return new RedisEntry(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]),
                    parts.length > 3 ? parts[3] : "", parts.length > 4 && parts[4].equals("r"));
        } catch (NumberFormatException e) {
            return new RedisEntry(entry, -1, -1, "", false);
        }
    }

    /**
     * @param mode     how it holds
     * @param clientId the asking client's id: its own entries' owner tokens start with it
     * @return the holder for a lock view
     */
    LockInfo.Holder holder(LockInfo.Mode mode, String clientId) {
        return new LockInfo.Holder(mode, fencingToken < 0 ? OptionalLong.empty() : OptionalLong.of(fencingToken),
                sinceMillis < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(sinceMillis)),
                owner.startsWith(clientId + ":"));
    }
}
