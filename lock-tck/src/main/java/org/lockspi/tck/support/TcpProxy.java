package org.lockspi.tck.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback TCP proxy put in front of one client, to cut it off from the server as a network partition would.
 * The client's URI names the proxy ({@link #rewrite(String)}); other clients go to the server directly.
 *
 * <ul>
 *   <li>{@link #blackHole(boolean)}: from now on every byte either way is dropped, and every open socket stays
 *       open, so neither end sees a reset, only silence. With {@code acceptNew} new connections are accepted and
 *       then black-holed too (a client's reconnect attempts hang); without it the listening socket is closed, so
 *       they are refused.</li>
 *   <li>{@link #heal()}: new connections are forwarded again (the port is listened on again if it was closed).
 *       Connections that dropped bytes are closed, because their byte streams have holes no protocol survives;
 *       the client reconnects, as it would after a real partition outlasted its read timeout.</li>
 *   <li>{@link #delayFromServer(Duration)}: every byte from the server reaches the client that much later, in
 *       order, as over a slow link; the client's bytes go at once.</li>
 * </ul>
 *
 * <p>With a {@link WireProtocol} ({@link #inFrontOf(String, WireProtocol)}) the proxy also reads the messages it
 * carries: it passes each on once it is whole, logs it ({@link #traffic()}), and can take out one chosen message
 * instead of a whole connection ({@link #arm(WireFault)}: a request that never arrives, an answer that never comes
 * back, an answer that comes late before the cut). The delay from the server applies to whole messages then, as
 * the proxy passes them on.
 *
 * <p>Two threads per connection copy the bytes, and one more delivers the delayed ones; at most {@value #CONNECTIONS} connections at once. Thread-safe;
 * {@link #close()} closes every socket and ends every thread, idempotent.
 *
 * <p>(Over 500 lines: the cut, the wire tap and the delay all act on each connection's two pumps and its state.)
 */
public final class TcpProxy implements AutoCloseable {
    static final int CONNECTIONS = 32;
    /** {@code scheme://[user@]host:port[...]}: the authority's host and port list is group 2. */
    private static final Pattern URI = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?)([^/?#]+)(.*)$");

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final ExecutorService threads;
    private final WireTap tap; // null: bytes are carried as they come
    private final List<Link> links = new ArrayList<>(); // guarded by this
    private final Set<String> upstreams = new LinkedHashSet<>(); // guarded by this
    private ServerSocket listener; // guarded by this; null while refusing
    /** Counted down when the accept loop of {@code listener} has returned. */
    private CountDownLatch acceptEnded; // guarded by this
    private boolean cut; // guarded by this
    /** How long bytes from the server are held back, in ns; 0 forwards them at once. */
    private volatile long delayNanos;
    /** Delivers delayed bytes in the order they were read (one thread; each delivery takes its link's oldest). */
    private final ScheduledExecutorService delayed;
    private boolean closed; // guarded by this

    /** One client connection and its upstream one; {@code upstream} is null for one accepted while cut. */
    private static final class Link {
        final Socket client;
        final Socket upstream;
        final WireTap.Connection wire; // null without a protocol, or without an upstream
        volatile boolean dropped;
        /** Bytes from the server scheduled for delivery and not yet written. */
        final AtomicInteger pending = new AtomicInteger();
        /**
         * Those bytes, oldest first: each delivery writes the oldest, not the chunk it was scheduled for, since
         * the executor may run two tasks due at nearly the same instant in either order.
         */
        final Queue<byte[]> held = new ConcurrentLinkedQueue<>();
        /** When the last scheduled bytes from the server are due (nanoTime): later ones never come before them. */
        long lastDue; // the server pump's thread only

        Link(Socket client, Socket upstream, WireTap.Connection wire) {
            this.client = client;
            this.upstream = upstream;
            this.wire = wire;
        }
    }

    private TcpProxy(String targetHost, int targetPort, WireProtocol protocol) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.tap = protocol == null ? null : new WireTap(protocol);
        threads = Executors.newFixedThreadPool(2 * CONNECTIONS + 1, r -> {
            Thread t = new Thread(r, "lockspi-tck-proxy");
            t.setDaemon(true);
            return t;
        });
        delayed = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockspi-tck-proxy-delay");
            t.setDaemon(true);
            return t;
        });
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            threads.shutdownNow();
            delayed.shutdownNow();
            throw new UncheckedIOException("cannot open the proxy's socket", e);
        }
        port = listener.getLocalPort();
        ServerSocket first = listener;
        CountDownLatch ended = new CountDownLatch(1);
        acceptEnded = ended;
        threads.execute(() -> acceptLoop(first, ended));
    }

    /**
     * Starts a proxy on a free loopback port in front of the server that {@code serverUri} names.
     *
     * @param serverUri a URI {@code scheme://[user@]host:port[/path][?query]} with a single host
     * @return the running proxy
     * @throws IllegalArgumentException if the URI names no single {@code host:port}
     * @throws UncheckedIOException     if the socket cannot be opened
     */
    public static TcpProxy inFrontOf(String serverUri) {
        return start(serverUri, null);
    }

    /**
     * Starts a proxy that also reads the messages it carries, by {@code protocol}, so that it can log them and
     * strike one ({@link #arm(WireFault)}).
     *
     * @param serverUri a URI {@code scheme://[user@]host:port[/path][?query]} with a single host
     * @param protocol  how the server's protocol frames its messages
     * @return the running proxy
     * @throws IllegalArgumentException if the URI names no single {@code host:port}
     * @throws UncheckedIOException     if the socket cannot be opened
     */
    public static TcpProxy inFrontOf(String serverUri, WireProtocol protocol) {
        return start(serverUri, java.util.Objects.requireNonNull(protocol, "protocol"));
    }

    private static TcpProxy start(String serverUri, WireProtocol protocol) {
        String authority = authority(serverUri);
        int colon = authority.lastIndexOf(':');
        if (authority.contains(",") || colon < 1) {
            throw new IllegalArgumentException("the URI names no single host:port: " + serverUri);
        }
        return new TcpProxy(authority.substring(0, colon), Integer.parseInt(authority.substring(colon + 1)),
                protocol);
    }

    private static String authority(String uri) {
        Matcher m = URI.matcher(uri);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a scheme://host:port URI: " + uri);
        }
        return m.group(2);
    }

    /**
     * @param serverUri the URI the proxy was started for, possibly with parameters
     * @return the same URI with its {@code host:port} replaced by the proxy's address
     */
    public String rewrite(String serverUri) {
        Matcher m = URI.matcher(serverUri);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a scheme://host:port URI: " + serverUri);
        }
        return m.group(1) + "127.0.0.1:" + port + m.group(3);
    }

    /** @return the loopback port the proxy listens on */
    public int port() {
        return port;
    }

    /**
     * @return the local address ({@code 127.0.0.1:<port>}) of every connection the proxy opened to the server, open
     *         or closed, in the order they were opened: the addresses the server sees the client behind the proxy
     *         come from
     */
    public synchronized Set<String> upstreamAddresses() {
        return java.util.Collections.unmodifiableSet(new LinkedHashSet<>(upstreams));
    }

    /**
     * @return every message the proxy carried so far, in the order they came to it
     * @throws IllegalStateException if the proxy was started without a {@link WireProtocol}
     */
    public List<WirePassage> traffic() {
        return tap().log();
    }

    /**
     * Arms a fault: the message it chooses, among those that come from now on, is struck as the fault says. A
     * fault armed before and not struck yet is dropped.
     *
     * @param fault the fault
     * @return {@code fault}, to wait for
     * @throws IllegalStateException if the proxy was started without a {@link WireProtocol}
     */
    public WireFault arm(WireFault fault) {
        return tap().arm(java.util.Objects.requireNonNull(fault, "fault"));
    }

    private WireTap tap() {
        if (tap == null) {
            throw new IllegalStateException(this + " was started without a wire protocol");
        }
        return tap;
    }

    /**
     * Cuts the client off: drops every byte from now on, keeping sockets open.
     *
     * @param acceptNew whether new connections are still accepted (and black-holed) or refused
     */
    public void blackHole(boolean acceptNew) {
        CountDownLatch ended = null;
        synchronized (this) {
            cut = true;
            if (!acceptNew && listener != null) {
                closeQuietly(listener);
                listener = null;
                ended = acceptEnded;
            }
        }
        if (ended != null) {
            // the kernel keeps the socket listening until the thread blocked in accept() has left it: connections
            // are refused only from then on (outside the lock, which that thread may be waiting for)
            try {
                ended.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Holds back every byte from the server for {@code delay} before the client gets it, from now on (on open
     * connections too); {@code Duration.ZERO} ends the delay. Bytes never overtake bytes held back before them, also
     * when the delay is lowered. Bytes still held back when the proxy is cut are dropped. With a
     * {@link WireProtocol} the delay holds back whole messages, as the proxy passes them on.
     *
     * @param delay how long each byte from the server is held back, at least zero
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public void delayFromServer(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay < 0: " + delay);
        }
        delayNanos = delay.toNanos();
    }

    /**
     * Ends the cut: closes the connections that dropped bytes and forwards new ones.
     *
     * @throws UncheckedIOException if the port cannot be listened on again
     */
    public synchronized void heal() {
        cut = false;
        for (Link link : new ArrayList<>(links)) {
            if (link.dropped || link.upstream == null) {
                closeLink(link);
            }
        }
        if (listener == null && !closed) {
            try {
                ServerSocket again = new ServerSocket();
                again.setReuseAddress(true);
                again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
                listener = again;
                CountDownLatch ended = new CountDownLatch(1);
                acceptEnded = ended;
                threads.execute(() -> acceptLoop(again, ended));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot listen on proxy port " + port + " again", e);
            }
        }
    }

    private void acceptLoop(ServerSocket socket, CountDownLatch ended) {
        try {
            accept(socket);
        } finally {
            ended.countDown();
        }
    }

    private void accept(ServerSocket socket) {
        while (true) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // closed: refusing, or the proxy is closed
            }
            Socket upstream = null;
            boolean black;
            synchronized (this) {
                black = cut;
            }
            if (!black) {
                try {
                    upstream = new Socket();
                    upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                } catch (IOException e) {
                    closeQuietly(upstream);
                    closeQuietly(client); // the server is down: the client sees its connection closed
                    continue;
                }
            }
            Link link = new Link(client, upstream, tap == null || upstream == null ? null : tap.open());
            synchronized (this) {
                if (closed || links.size() >= CONNECTIONS) {
                    closeLink(link);
                    continue;
                }
                links.add(link);
                if (upstream != null) {
                    upstreams.add("127.0.0.1:" + upstream.getLocalPort());
                }
            }
            threads.execute(() -> pump(link, link.client, link.upstream, WireMessage.Direction.REQUEST));
            if (link.upstream != null) {
                threads.execute(() -> pump(link, link.upstream, link.client, WireMessage.Direction.RESPONSE));
            }
        }
    }

    /**
     * Copies {@code from} to {@code to} while not cut (whole messages, through the tap, with a protocol); drops the
     * bytes while cut; closes the link at the end, or when a fault dropped one of its messages.
     */
    private void pump(Link link, Socket from, Socket to, WireMessage.Direction direction) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to == null ? null
                    : direction == WireMessage.Direction.RESPONSE ? new FromServer(link, to.getOutputStream())
                    : to.getOutputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (link.wire != null) {
                    WireTap.After after = tap.carry(link.wire, direction, buffer, n, out, () -> dropping(link),
                            () -> blackHole(true));
                    if (after == WireTap.After.CLOSE) {
                        synchronized (this) {
                            closeLink(link); // the message was the last the connection carried
                        }
                        return;
                    }
                    if (after == WireTap.After.DROPPED_BYTES) {
                        link.dropped = true;
                    }
                    continue;
                }
                if (dropping(link) || out == null) {
                    link.dropped = true;
                } else {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // a socket was closed: the link ends
        }
        synchronized (this) {
            if (cut && !closed) {
                // while cut, an end that closes is not told to the other end: silence, as in a partition;
                // heal() closes the link
                link.dropped = true;
                return;
            }
            closeLink(link);
        }
    }

    private synchronized boolean dropping(Link link) {
        return cut || link.dropped;
    }

    /**
     * The client's socket as the server's bytes reach it: at once while there is no delay; while
     * {@link #delayFromServer(Duration) delayed}, or behind bytes held back before, what is written is gathered and
     * handed at {@link #flush()} to the delay thread. Used by the link's server pump only.
     */
    private final class FromServer extends OutputStream {
        private final Link link;
        private final OutputStream socket;
        private byte[] buffer = new byte[8192];
        private int size;

        FromServer(Link link, OutputStream socket) {
            this.link = link;
            this.socket = socket;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int from, int length) throws IOException {
            if (size == 0 && delayNanos == 0 && link.pending.get() == 0) {
                socket.write(bytes, from, length); // not delayed: as it comes, as without a delay
                return;
            }
            if (size + length > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(2 * buffer.length, size + length));
            }
            System.arraycopy(bytes, from, buffer, size, length);
            size += length;
        }

        @Override
        public void flush() throws IOException {
            if (size == 0) {
                socket.flush();
                return;
            }
            byte[] chunk = Arrays.copyOf(buffer, size);
            size = 0;
            long delay = delayNanos;
            if (delay == 0 && link.pending.get() == 0) {
                socket.write(chunk);
                socket.flush();
                return;
            }
            // in order: after the bytes held back before, also once the delay was lowered
            long now = System.nanoTime();
            long due = Math.max(now + delay, link.lastDue);
            link.lastDue = due;
            link.pending.incrementAndGet();
            link.held.add(chunk);
            try {
                delayed.schedule(() -> deliver(link, socket), due - now, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                link.pending.decrementAndGet(); // the proxy is closed: nothing is delivered any more
            }
        }
    }

    /** Writes the oldest bytes held back by the delay, unless the proxy was cut meanwhile. */
    private void deliver(Link link, OutputStream out) {
        byte[] chunk = link.held.poll(); // never null: one delivery per chunk held, all on the one delay thread
        try {
            synchronized (this) {
                if (cut || link.dropped || closed) {
                    link.dropped = true;
                    return;
                }
            }
            out.write(chunk);
            out.flush();
        } catch (IOException e) {
            // the client's socket closed: its pump ends the link
        } finally {
            link.pending.decrementAndGet();
        }
    }

    private void closeLink(Link link) {
        links.remove(link);
        closeQuietly(link.client);
        closeQuietly(link.upstream);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            closeQuietly(listener);
            listener = null;
            for (Link link : new ArrayList<>(links)) {
                closeLink(link);
            }
        }
        threads.shutdownNow();
        delayed.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
            delayed.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "TcpProxy[127.0.0.1:" + port + " -> " + targetHost + ":" + targetPort
                + (tap == null ? "" : ", " + tap.protocolName()) + "]";
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // closing on the way out: nothing to do
        }
    }
}
