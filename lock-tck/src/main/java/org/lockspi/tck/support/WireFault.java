package org.lockspi.tck.support;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One message to strike, chosen by its operation and its place among the messages of that operation after the
 * fault is {@linkplain TcpProxy#arm(WireFault) armed}, and what happens to it. A lost message is the last thing a
 * connection carries, as on a real network, where TCP loses no byte alone: the connection breaks there.
 *
 * <ul>
 *   <li>{@link #dropRequest}: the request never reaches the server; the connection is then closed (the server
 *       did nothing, the client does not know).</li>
 *   <li>{@link #dropResponse}: the server did what the request asked and answered without an error; the answer is
 *       dropped and the connection closed (the client does not know that it happened).</li>
 *   <li>{@link #delayResponseThenCut}: the request reaches the server; from that moment the proxy drops every byte
 *       of every connection, keeping sockets open and accepting new connections silently (as
 *       {@link TcpProxy#blackHole(boolean) blackHole(true)}), except the answer to that request, which reaches the
 *       client {@code delay} after the server sent it: the last contact, answered late.</li>
 * </ul>
 *
 * <p>A fault strikes once. Thread-safe: the proxy's threads strike it, a test waits for it.
 */
public final class WireFault {

    /** What happens to the chosen message. */
    public enum Kind {
        /** The request is dropped and its connection closed. */
        DROP_REQUEST,
        /** The answer is dropped and its connection closed. */
        DROP_RESPONSE,
        /** The request passes, then every byte is dropped but the answer to it, which comes late. */
        DELAY_RESPONSE_THEN_CUT
    }

    private final Kind kind;
    private final String operation;
    private final int nth;
    private final Duration delay;
    private final CountDownLatch struck = new CountDownLatch(1);
    private int seen; // guarded by this
    private volatile WireMessage message;
    private volatile long struckAt;
    private volatile long deliveredAt;

    private WireFault(Kind kind, String operation, int nth, Duration delay) {
        this.kind = kind;
        this.operation = Objects.requireNonNull(operation, "operation");
        if (nth < 1) {
            throw new IllegalArgumentException("nth < 1: " + nth);
        }
        this.nth = nth;
        this.delay = delay;
    }

    /**
     * @param operation the request's operation, as the protocol names it
     * @param nth       which request of that operation after arming: 1 for the next one
     * @return a fault that drops that request and closes its connection
     */
    public static WireFault dropRequest(String operation, int nth) {
        return new WireFault(Kind.DROP_REQUEST, operation, nth, Duration.ZERO);
    }

    /**
     * @param operation the operation of the request whose answer is struck
     * @param nth       which answer to that operation after arming that reports no error: 1 for the next one
     * @return a fault that drops that answer and closes its connection
     */
    public static WireFault dropResponse(String operation, int nth) {
        return new WireFault(Kind.DROP_RESPONSE, operation, nth, Duration.ZERO);
    }

    /**
     * @param operation the request's operation
     * @param nth       which request of that operation after arming: 1 for the next one
     * @param delay     how long the answer is held back, positive
     * @return a fault that lets that request through, then cuts every connection off, and delivers that request's
     *         answer alone, late
     */
    public static WireFault delayResponseThenCut(String operation, int nth, Duration delay) {
        if (delay.isNegative() || delay.isZero()) {
            throw new IllegalArgumentException("delay <= 0: " + delay);
        }
        return new WireFault(Kind.DELAY_RESPONSE_THEN_CUT, operation, nth, delay);
    }

    /** @return what happens to the chosen message */
    public Kind kind() {
        return kind;
    }

    /** @return the operation it is chosen by */
    public String operation() {
        return operation;
    }

    /** @return how long an answer is held back; zero unless {@link Kind#DELAY_RESPONSE_THEN_CUT} */
    public Duration delay() {
        return delay;
    }

    /**
     * Whether a message the proxy carries is the chosen one; counts the candidates. Called by the proxy's threads,
     * in the order the messages come.
     */
    synchronized boolean chooses(WireMessage m) {
        if (message != null || !m.operation().equals(operation)) {
            return false;
        }
        boolean candidate = kind == Kind.DROP_RESPONSE
                ? m.direction() == WireMessage.Direction.RESPONSE && m.request() != null
                        && !m.is(WireMessage.Trait.ERROR)
                : m.direction() == WireMessage.Direction.REQUEST;
        return candidate && ++seen == nth;
    }

    /** Records that {@code m} was struck at {@code at} ({@link System#nanoTime()}). */
    void struck(WireMessage m, long at) {
        message = m;
        struckAt = at;
        struck.countDown();
    }

    /** Records when the held-back answer reached the client. */
    void delivered(long at) {
        deliveredAt = at;
    }

    /**
     * @param timeout how long to wait
     * @return whether the fault struck within {@code timeout}
     * @throws InterruptedException if the thread is interrupted
     */
    public boolean awaitStruck(Duration timeout) throws InterruptedException {
        return struck.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** @return whether it struck */
    public boolean hasStruck() {
        return struck.getCount() == 0;
    }

    /** @return the message it struck (for a delay, the request let through); null if it has not struck */
    public WireMessage message() {
        return message;
    }

    /**
     * @return when it struck ({@link System#nanoTime()}): when the dropped message came to the proxy, or when the
     *         delayed answer's request passed to the server; 0 if it has not
     */
    public long struckAt() {
        return struckAt;
    }

    /** @return when the held-back answer was written to the client ({@link System#nanoTime()}); 0 if not (yet) */
    public long deliveredAt() {
        return deliveredAt;
    }

    @Override
    public String toString() {
        return kind + " of " + operation + " #" + nth + (kind == Kind.DELAY_RESPONSE_THEN_CUT ? " by "
                + delay.toMillis() + " ms" : "") + (message == null ? "" : ", struck " + message);
    }
}
