package org.lockspi.tck.support;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The message-aware part of a {@link TcpProxy} that has a {@link WireProtocol}: it frames each connection's bytes
 * into whole messages, logs each one, passes it on, and strikes the one an armed {@link WireFault} chooses. A
 * message is passed on only once it is whole, so a fault can take it out exactly.
 *
 * <p>Thread-safe: each connection's two directions are carried by two of the proxy's threads.
 */
final class WireTap {
    /** A message longer than this is taken for bytes of another protocol: the connection goes on unframed. */
    private static final int MAX_MESSAGE = 64 << 20;

    private final WireProtocol protocol;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<WirePassage> log = new ArrayList<>(); // guarded by this
    private WireFault armed; // guarded by this

    WireTap(WireProtocol protocol) {
        this.protocol = protocol;
    }

    /** What the proxy does with a connection after a chunk of its bytes was carried. */
    enum After {
        /** Nothing: go on. */
        GO_ON,
        /** Bytes were dropped because the proxy is cut: the connection's streams have holes. */
        DROPPED_BYTES,
        /** A fault dropped a message: close the connection. */
        CLOSE
    }

    /** What becomes of one message. */
    private enum Step {
        FORWARD, DROP, PASS_THEN_CUT, DELAY
    }

    /** One client connection's framing: its conversation and each direction's bytes not yet whole. */
    final class Connection {
        final int number = connections.incrementAndGet();
        final WireProtocol.Conversation conversation = protocol.newConversation();
        private final Pending toServer = new Pending();
        private final Pending toClient = new Pending();
        private volatile boolean unframed;

        private Pending pending(WireMessage.Direction direction) {
            return direction == WireMessage.Direction.REQUEST ? toServer : toClient;
        }
    }

    /** @return the framing of a new connection */
    Connection open() {
        return new Connection();
    }

    /** @return the protocol's name */
    String protocolName() {
        return protocol.name();
    }

    /** Arms a fault, replacing one that has not struck. */
    synchronized WireFault arm(WireFault fault) {
        armed = fault;
        return fault;
    }

    /** @return every message carried so far, in the order they came */
    synchronized List<WirePassage> log() {
        return List.copyOf(log);
    }

    /**
     * Carries a chunk of one direction's bytes: frames them, passes on every whole message (or drops it while
     * {@code dropping} says the proxy is cut), and applies the armed fault.
     *
     * @param c         the connection
     * @param direction which way the bytes go
     * @param bytes     the chunk
     * @param n         its length
     * @param out       where whole messages go
     * @param dropping  whether the proxy is cut (or the connection has dropped bytes) now
     * @param cut       cuts the whole proxy off, for {@link WireFault.Kind#DELAY_RESPONSE_THEN_CUT}
     * @return what the proxy does with the connection next
     * @throws IOException if writing fails (the connection ends)
     */
    After carry(Connection c, WireMessage.Direction direction, byte[] bytes, int n, OutputStream out,
                BooleanSupplier dropping, Runnable cut) throws IOException {
        Pending p = c.pending(direction);
        if (c.unframed) {
            return raw(bytes, 0, n, out, dropping);
        }
        p.append(bytes, n);
        After after = After.GO_ON;
        try {
            while (p.start < p.end) {
                int length;
                WireMessage m;
                try {
                    length = c.conversation.frameLength(direction, p.bytes, p.start, p.end);
                    if (length < 0 && p.end - p.start > MAX_MESSAGE) {
                        throw new IllegalArgumentException("no whole message in " + (p.end - p.start) + " bytes");
                    }
                    if (length < 0) {
                        break;
                    }
                    if (length == 0 || length > p.end - p.start) {
                        throw new IllegalArgumentException("a message of " + length + " bytes framed in "
                                + (p.end - p.start));
                    }
                    m = c.conversation.describe(direction, p.bytes, p.start, length);
                } catch (RuntimeException e) {
                    // not this protocol (or a reader's bug): carry the rest as it comes, say so once in the log
                    c.unframed = true;
                    String why = "(unframed) " + e;
                    record(c, direction == WireMessage.Direction.REQUEST ? WireMessage.request(why, "")
                            : WireMessage.push(why, ""), System.nanoTime(), WirePassage.Fate.FORWARDED);
                    After rest = raw(p.bytes, p.start, p.end - p.start, out, dropping);
                    p.clear();
                    return rest == After.GO_ON ? after : rest;
                }
                long at = System.nanoTime();
                WireFault fault;
                Step step;
                synchronized (this) {
                    fault = armed;
                    step = step(fault, m);
                }
                switch (step) {
                    case DROP:
                        record(c, m, at, WirePassage.Fate.DROPPED);
                        fault.struck(m, at);
                        p.clear();
                        return After.CLOSE;
                    case PASS_THEN_CUT:
                        // logged and noted before it goes on: whoever sees its effect finds it in the log
                        record(c, m, at, WirePassage.Fate.FORWARDED);
                        fault.struck(m, at);
                        cut.run(); // nothing else passes from now on, either way; this request still goes
                        out.write(p.bytes, p.start, length);
                        out.flush();
                        break;
                    case DELAY:
                        out.flush();
                        if (!sleepUntil(fault.struckAt() + fault.delay().toNanos())) {
                            return After.CLOSE; // the proxy is closing
                        }
                        record(c, m, at, WirePassage.Fate.DELAYED);
                        fault.delivered(System.nanoTime());
                        out.write(p.bytes, p.start, length);
                        out.flush();
                        break;
                    default:
                        if (dropping.getAsBoolean() || out == null) {
                            record(c, m, at, WirePassage.Fate.DROPPED);
                            after = After.DROPPED_BYTES;
                        } else {
                            record(c, m, at, WirePassage.Fate.FORWARDED);
                            out.write(p.bytes, p.start, length);
                        }
                        break;
                }
                p.start += length;
            }
            if (out != null) {
                out.flush();
            }
        } finally {
            p.compact();
        }
        return after;
    }

    private static Step step(WireFault fault, WireMessage m) {
        if (fault == null) {
            return Step.FORWARD;
        }
        if (fault.kind() == WireFault.Kind.DELAY_RESPONSE_THEN_CUT && fault.message() != null
                && m.request() == fault.message()) {
            return Step.DELAY;
        }
        if (!fault.chooses(m)) {
            return Step.FORWARD;
        }
        return fault.kind() == WireFault.Kind.DELAY_RESPONSE_THEN_CUT ? Step.PASS_THEN_CUT : Step.DROP;
    }

    private static After raw(byte[] bytes, int from, int length, OutputStream out, BooleanSupplier dropping)
            throws IOException {
        if (dropping.getAsBoolean() || out == null) {
            return After.DROPPED_BYTES;
        }
        out.write(bytes, from, length);
        out.flush();
        return After.GO_ON;
    }

    private synchronized void record(Connection c, WireMessage m, long at, WirePassage.Fate fate) {
        log.add(new WirePassage(at, c.number, m, fate));
    }

    /** The delay of a fault; false if interrupted (the proxy is closing). */
    private static boolean sleepUntil(long deadline) {
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left); // the fault itself: the answer is held back this long
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One direction's bytes that do not make a whole message yet. Used by one thread. */
    private static final class Pending {
        byte[] bytes = new byte[8192];
        int start;
        int end;

        void append(byte[] chunk, int n) {
            if (end + n > bytes.length) {
                compact();
                if (end + n > bytes.length) {
                    bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, end + n));
                }
            }
            System.arraycopy(chunk, 0, bytes, end, n);
            end += n;
        }

        void compact() {
            if (start > 0) {
                System.arraycopy(bytes, start, bytes, 0, end - start);
                end -= start;
                start = 0;
            }
        }

        void clear() {
            start = 0;
            end = 0;
        }
    }
}
