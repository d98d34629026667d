package org.lockspi;

import java.time.Duration;
import java.util.List;

/**
 * One acquisition of every part of a {@link MultiLock}; closing it releases them all.
 *
 * <ul>
 *   <li><b>State.</b> {@link #state()} is the worst of its parts' states, in the order {@code LOST} (a part was
 *       lost) before {@code RELEASED} (the service was closed) before {@code UNCERTAIN} before {@code HELD}, or
 *       {@code RELEASED} once this lease was released: it is {@code HELD} only while every part is.
 *       {@link #validFor()} is the shortest of the parts'.</li>
 *   <li><b>Listeners</b> hear the changes of that worst state ({@code HELD -> UNCERTAIN},
 *       {@code UNCERTAIN -> HELD}, one change to {@code LOST}), on the service's event thread, in order with the
 *       parts' own listeners, as {@link Lease#addListener(LeaseListener)} says; a part turning {@code UNCERTAIN}
 *       while another is already is no change.</li>
 *   <li><b>Fencing.</b> A multi-lease has no fencing token of its own: a token orders the holders of <em>one</em>
 *       lock, and a resource guarded by lock {@code a} must compare {@code a}'s tokens, never a number mixed from
 *       several locks. {@link #fencingToken()} throws {@link UnsupportedOperationException} saying so; pass each
 *       resource the token of the part that guards it ({@link #part(String)}{@code .fencingToken()}).</li>
 *   <li><b>Release.</b> {@link #release()} releases every part, in the reverse of the acquisition order, and
 *       attempts every one even when one fails: the first failure is thrown with the others added as suppressed.
 *       The parts' own leases ({@link #parts()}) cannot be released one by one: their {@code release()} throws
 *       {@link UnsupportedOperationException} and they stay held.</li>
 *   <li><b>Checks.</b> {@link #checkValid()} throws {@link LeaseLostException} naming the part in the worst state
 *       (its lock and state), or this lease ({@link #lockName()}) once it was released.</li>
 * </ul>
 *
 * <p>Thread-safe. A multi-lease with a thread-owned part must be released by the thread that acquired it.
 */
public interface MultiLease extends Lease {

    /** @return the multi-lock's name: its parts' names in acquisition order, joined by {@code " + "} */
    @Override
    String lockName();

    /**
     * Always throws: a multi-lease has no fencing token of its own (see the class comment).
     *
     * @return never
     * @throws UnsupportedOperationException always, with the reason and the way to each part's token
     */
    @Override
    long fencingToken();

    /**
     * The leases of the parts, in acquisition order: for their tokens, states and listeners. Their
     * {@code release()} and {@code close()} throw {@link UnsupportedOperationException}: release this lease.
     *
     * @return the parts' leases, immutable
     */
    List<Lease> parts();

    /**
     * @param name a part's lock name
     * @return that part's lease (see {@link #parts()})
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if no part has that name; the message lists the parts
     */
    Lease part(String name);

    /** @return the worst of the parts' states, or {@code RELEASED} once released (see the class comment) */
    @Override
    LeaseState state();

    /** @return the shortest of the parts' {@link Lease#validFor()}; {@link Duration#ZERO} unless {@code HELD} */
    @Override
    Duration validFor();

    /**
     * Releases every part (see the class comment). Releasing again, or after the service was closed, does
     * nothing.
     *
     * @throws IllegalMonitorStateException if a part is thread-owned and the calling thread is not the one that
     *                                      acquired it; nothing is released
     * @throws LockConnectionException      if the server could not be told of a part's release (the first such
     *                                      failure; the others suppressed); every part is released locally
     */
    @Override
    void release();
}
