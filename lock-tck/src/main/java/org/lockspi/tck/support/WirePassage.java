package org.lockspi.tck.support;

/**
 * One message as a {@link TcpProxy} with a {@link WireProtocol} carried it: when it came, on which connection, and
 * what became of it.
 *
 * @param at         when the whole message had come to the proxy ({@link System#nanoTime()})
 * @param connection the proxy's number for the client connection, from 1 in the order they were accepted
 * @param message    the message
 * @param fate       what the proxy did with it
 */
public record WirePassage(long at, int connection, WireMessage message, Fate fate) {

    /** What the proxy did with a message. */
    public enum Fate {
        /** Passed on. */
        FORWARDED,
        /** Dropped: by a {@link WireFault}, or because the proxy was cut ({@link TcpProxy#blackHole(boolean)}). */
        DROPPED,
        /** Passed on late, by a {@link WireFault.Kind#DELAY_RESPONSE_THEN_CUT} fault. */
        DELAYED
    }

    @Override
    public String toString() {
        return "#" + connection + " " + message + (fate == Fate.FORWARDED ? "" : " " + fate);
    }
}
