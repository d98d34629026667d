package org.lockspi.tck.support;

/**
 * How a server's wire protocol splits a client connection's two byte streams into whole messages, so that a
 * {@link TcpProxy} can drop or delay one chosen message instead of a whole connection (§24 of docs/spec.md). The kit
 * knows no protocol; a fixture that serves one implements this (ZooKeeper's length-prefixed jute records in
 * {@code lock-tck-zookeeper}, RESP in {@code lock-tck-redis}) and offers it through
 * {@code TckBackend.wireProtocol()}.
 *
 * <p>A protocol is stateless and shared; each connection gets a {@link Conversation} of its own.
 */
public interface WireProtocol {

    /** @return the protocol's name, for reports, e.g. {@code ZooKeeper client protocol (jute)} */
    String name();

    /** @return a reader for one new connection, from its first byte either way */
    Conversation newConversation();

    /**
     * One connection as the protocol reads it. The proxy hands it each direction's bytes in order; it keeps what the
     * two directions share (the requests not yet answered, so that a response names its request; whether the
     * connection's opening was seen).
     *
     * <p><b>Threads.</b> Each direction is read by one thread, the two directions at once: an implementation guards
     * what they share. A request is always described before any byte of it reaches the server, so its answer is
     * never described first.
     */
    interface Conversation {

        /**
         * @param direction which way the bytes go
         * @param bytes     the bytes not yet framed, from {@code from} to {@code to} (exclusive)
         * @param from      the first byte of the next message
         * @param to        the end of the bytes at hand
         * @return the length in bytes of the whole message that starts at {@code from}, or {@code -1} if more bytes
         *         are needed to know it or to have it
         * @throws IllegalArgumentException if the bytes are no message of the protocol; the proxy then forwards the
         *                                  rest of the connection as it comes, unframed
         */
        int frameLength(WireMessage.Direction direction, byte[] bytes, int from, int to);

        /**
         * Reads one whole message, as {@link #frameLength} framed it. Called once for each message of a direction,
         * in order.
         *
         * @param direction which way it goes
         * @param bytes     the bytes
         * @param from      its first byte
         * @param length    its length
         * @return what it is: for a response, a {@link WireMessage#response} to the request it answers, or a
         *         {@link WireMessage#push}
         * @throws IllegalArgumentException if it is no message of the protocol (the proxy forwards the rest
         *                                  unframed)
         */
        WireMessage describe(WireMessage.Direction direction, byte[] bytes, int from, int length);
    }
}
