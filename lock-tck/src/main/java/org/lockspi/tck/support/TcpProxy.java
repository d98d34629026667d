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
import java.util.List;
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
 * <p>Two threads per connection copy the bytes, and one more delivers the delayed ones; at most
 * {@value #CONNECTIONS} connections at once. Thread-safe;
 * {@link #close()} closes every socket and ends every thread, idempotent.
 */
public final class TcpProxy implements AutoCloseable {
    static final int CONNECTIONS = 32;
    /** {@code scheme://[user@]host:port[...]}: the authority's host and port list is group 2. */
    private static final Pattern URI = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?)([^/?#]+)(.*)$");

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final ExecutorService threads;
    private final List<Link> links = new ArrayList<>(); // guarded by this
    private ServerSocket listener; // guarded by this; null while refusing
    private boolean cut; // guarded by this
    /** How long bytes from the server are held back, in ns; 0 forwards them at once. */
    private volatile long delayNanos;
    /** Delivers delayed bytes in the order they were read (one thread; equal delays keep the order). */
    private final ScheduledExecutorService delayed;
    private boolean closed; // guarded by this

    /** One client connection and its upstream one; {@code upstream} is null for one accepted while cut. */
    private static final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean dropped;
        /** Bytes from the server scheduled for delivery and not yet written. */
        final AtomicInteger pending = new AtomicInteger();
        /** When the last scheduled bytes from the server are due (nanoTime): later ones never come before them. */
        long lastDue; // the server pump's thread only

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }
    }

    private TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
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
        threads.execute(() -> acceptLoop(first));
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
        String authority = authority(serverUri);
        int colon = authority.lastIndexOf(':');
        if (authority.contains(",") || colon < 1) {
            throw new IllegalArgumentException("the URI names no single host:port: " + serverUri);
        }
        return new TcpProxy(authority.substring(0, colon), Integer.parseInt(authority.substring(colon + 1)));
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
     * Cuts the client off: drops every byte from now on, keeping sockets open.
     *
     * @param acceptNew whether new connections are still accepted (and black-holed) or refused
     */
    public synchronized void blackHole(boolean acceptNew) {
        cut = true;
        if (!acceptNew && listener != null) {
            closeQuietly(listener);
            listener = null;
        }
    }

    /**
     * Holds back every byte from the server for {@code delay} before the client gets it, from now on (on open
     * connections too); {@code Duration.ZERO} ends the delay. Bytes never overtake bytes held back before them, also
     * when the delay is lowered. Bytes still held back when the proxy is cut are dropped.
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
                threads.execute(() -> acceptLoop(again));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot listen on proxy port " + port + " again", e);
            }
        }
    }

    private void acceptLoop(ServerSocket socket) {
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
            Link link = new Link(client, upstream);
            synchronized (this) {
                if (closed || links.size() >= CONNECTIONS) {
                    closeLink(link);
                    continue;
                }
                links.add(link);
            }
            threads.execute(() -> pump(link, link.client, link.upstream));
            if (link.upstream != null) {
                threads.execute(() -> pump(link, link.upstream, link.client));
            }
        }
    }

    /** Copies {@code from} to {@code to} while not cut; drops the bytes while cut; closes the link at the end. */
    private void pump(Link link, Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to == null ? null : to.getOutputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                boolean drop;
                synchronized (this) {
                    drop = cut || link.dropped;
                }
                long delay = from == link.upstream ? delayNanos : 0;
                if (drop || out == null) {
                    link.dropped = true;
                } else if (delay > 0 || from == link.upstream && link.pending.get() > 0) {
                    // in order: after the bytes held back before, also once the delay was lowered
                    long now = System.nanoTime();
                    long due = Math.max(now + delay, link.lastDue);
                    link.lastDue = due;
                    link.pending.incrementAndGet();
                    byte[] chunk = Arrays.copyOf(buffer, n);
                    try {
                        delayed.schedule(() -> deliver(link, out, chunk), due - now, TimeUnit.NANOSECONDS);
                    } catch (RejectedExecutionException closing) {
                        link.pending.decrementAndGet(); // the proxy is closed: nothing is delivered any more
                    }
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

    /** Writes bytes held back by the delay, unless the proxy was cut meanwhile. */
    private void deliver(Link link, OutputStream out, byte[] chunk) {
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
        return "TcpProxy[127.0.0.1:" + port + " -> " + targetHost + ":" + targetPort + "]";
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
