package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.requireSomeKind;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;
import org.lockspi.tck.internal.AdversarialNames;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.NameFamilyRun;

/**
 * §2.11 to §2.14: distinct names stay distinct locks on the provider's own layout. The engine's key keeps every two
 * names apart ({@code LockKeys}); what a provider builds below it (a column, a node path, a key with a prefix and a
 * hash tag, a hash) may merge them again. Each rule takes a family of names built to break one sort of derivation
 * ({@link AdversarialNames}) and, for every kind the provider declares, has two clients hold all of them at once,
 * each pair acquired in both orders, then has each refused to a client that does not hold it
 * ({@link NameFamilyRun}, which docs/spec.md describes under §2).
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface DistinctNameContracts extends TckContext {

    /**
     * For every declared kind, the names of {@code AdversarialNames.lengths}: readable names of 64, 65, 191 and 255
     * characters and encoded names whose keys are 255, 256, 1024, 4096 and 5463 characters long, in pairs that
     * differ only in their last character; at 255 characters and 4096 bytes also names that differ only just after
     * the stem or only in the middle; the longest readable name and one character more; names of four-byte
     * characters of 4096 bytes. Client a holds the even names, then b the odd ones; b acquires each even name again
     * once a released it; a is refused every name; (INSPECTION) each name shows its own holder and token, and
     * {@code list(stem)} shows exactly the family.
     */
    @Test
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @Diagnosis("Two long names that share a long prefix (or a long end) became one lock: look below "
            + "AcquireRequest.name() for a key cut to a length (a VARCHAR column, a path or key limit, a substring "
            + "before hashing), a key kept by its end or its two ends, or a length limit that maps long keys onto a "
            + "shorter form without keeping them apart. The message names both names and where they first differ.")
    @DisplayName("§2.11 names at and past every length limit, and long names sharing long prefixes, are distinct locks for every kind")
    default void longNamesAreDistinctLocks() throws InterruptedException {
        holdApart("lengths", "len", true, AdversarialNames::lengths);
    }

    /**
     * For every declared kind, the names of {@code AdversarialNames.hashCodes}: readable names of the blocks
     * {@code Aa} and {@code BB} (equal {@code String.hashCode()}), short and of about 200 characters; encoded names
     * whose keys have equal hash codes, of about 430 and of more than 5,000 characters; encoded names whose names
     * have equal hash codes. Held and checked as in §2.11, without the listing.
     */
    @Test
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @Diagnosis("Two names whose keys (or names) have the same String.hashCode() became one lock: look for a node, "
            + "key, row or local map keyed by hashCode() (or any 32-bit hash) of the key, often only for long keys; "
            + "store the key itself, or a cryptographic digest of it with the key beside it to tell collisions apart.")
    @DisplayName("§2.12 names with equal String.hashCode(), of their names or of their keys, are distinct locks for every kind")
    default void equalHashCodesAreDistinctLocks() throws InterruptedException {
        holdApart("hash codes", "hash", false, AdversarialNames::hashCodes);
    }

    /**
     * For every declared kind, the names of {@code AdversarialNames.casesAndForms}: readable names that differ only
     * in case ({@code lock}, {@code Lock}, {@code LOCK}; {@code i} and {@code I}); encoded names whose keys differ
     * only in the case of some letters; é precomposed and decomposed, three forms of Å, ﬁ and {@code fi}, full-width
     * letters, the Turkish ı and İ, ß and ẞ, σ and ς, the Kelvin sign, µ and μ, Hangul and its jamo. Held and checked
     * as in §2.11, without the listing.
     */
    @Test
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @Diagnosis("Keys are case-sensitive ASCII: two names became one lock if the provider compares keys without case "
            + "(a case-insensitive collation, MySQL's default; toLowerCase(); a case-insensitive file system or map), "
            + "or decodes keys to names and then normalises, folds case or ignores accents (NFC, NFKC, an _ai_ci "
            + "collation). Compare keys byte for byte (a binary collation, COLLATE \"C\").")
    @DisplayName("§2.13 names that differ only in case or Unicode form, and names whose keys differ only in case, are distinct locks for every kind")
    default void casesAndFormsAreDistinctLocks() throws InterruptedException {
        holdApart("cases and forms", "case", false, AdversarialNames::casesAndForms);
    }

    /**
     * For every declared kind, the names of {@code AdversarialNames.separators}: {@code /} doubled, leading,
     * trailing, dropped or replaced by {@code .}, {@code -} or {@code _}; {@code .} and {@code ..} segments and
     * trailing dots; a name beside names below it ({@code p} and {@code p/0}, {@code p/-}, {@code p/locks},
     * {@code p/leases/x}, {@code p/lock-}, {@code p/__WRIT__}, ...); {@code :}, braces ({@code a{b}c} and
     * {@code x{b}y}), glob characters, {@code %}, backslash and quotes, control characters next to U+0000, blanks
     * and no-break spaces, trailing and leading. Held and checked as in §2.11.
     */
    @Test
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @Diagnosis("A separator or special character of the provider's own syntax merged two names, or a name's "
            + "state got in the way of a name below it: look for '/' dropped, collapsed or mapped to '.', '-' or "
            + "'_'; a key matched with LIKE (where '_' matches any character) or a glob (SCAN MATCH, KEYS) without "
            + "escaping; trailing blanks or dots trimmed (a PAD SPACE collation); and, on a tree of nodes, a lock "
            + "that counts or orders every child of its node, where the nodes of a name below it live too.")
    @DisplayName("§2.14 names that differ by separators and characters special to a backend's syntax, and a name beside the names below it, are distinct locks for every kind")
    default void separatorsAreDistinctLocks() throws InterruptedException {
        holdApart("separators", "sep", true, AdversarialNames::separators);
    }

    /**
     * Runs one family for every declared kind at once, under a stem of its own: {@code <stem>-<kind>} for each kind;
     * the stem ends in {@code -n}, so that no other run's names start with it ({@code list(stem)} shows the family's
     * names alone). {@code list} walks every lock on the server, so only the families whose keys a walk may get
     * wrong (long keys, nested names) are listed.
     */
    private void holdApart(String family, String id, boolean list, Function<String, List<String>> names)
            throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        new NameFamilyRun(this, kinds, family, uniqueName("dn-" + id) + "-n", names, BOUND, list).run();
    }
}
