package org.lockspi.tck.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The oracle of the fault contracts: a fenced resource, as a lock's user would guard one, plus a record of who
 * said they held the lock when.
 *
 * <ul>
 *   <li><b>Fenced writes.</b> {@link #write(String, long)} accepts a write only with a token at least the highest
 *       token it accepted before ({@code OK}), and refuses it otherwise ({@code STALE}): a real fenced resource.
 *       A write it accepted although a greater token had been {@link #acquired granted} by then is recorded as an
 *       <em>accepted stale write</em> ({@link #acceptedStaleWrites()}): the fence let through a holder whose
 *       successor simply had not written yet.</li>
 *   <li><b>Holding intervals.</b> Holders report {@link #acquired(String, long)} when their lease is HELD and
 *       {@link #ended(String, long, String)} when it is first seen not HELD (released, uncertain, lost); the
 *       register stamps both with its own {@link System#nanoTime()} on receipt. {@link #overlaps()} lists every
 *       two intervals of different clients that share a moment: two leases that said HELD at once.</li>
 * </ul>
 *
 * <p>Reachable from this JVM by method calls and from child JVMs over a loopback TCP line protocol on
 * {@link #port()}, one request a line, one answer a line: {@code WRITE <client> <token>} → {@code OK} or
 * {@code STALE}; {@code ACQUIRED <client> <token>} and {@code ENDED <client> <token> <state>} → {@code OK};
 * anything else → {@code ERROR <reason>}. {@link #request(int, String)} is the client side. At most
 * {@value #CONNECTIONS} connections are served at once, each line at most {@value #MAX_LINE} characters.
 *
 * <p>Thread-safe. {@link #close()} closes the socket and ends its threads; idempotent.
 */
public final class FencedRegister implements AutoCloseable {
    /** How many connections are served at once. */
    static final int CONNECTIONS = 8;
    /** The longest request line. */
    static final int MAX_LINE = 256;

    /** One holding interval; {@code to} is {@link Long#MAX_VALUE} while open. */
    public record Interval(String client, long token, long from, long to, String end) {
        boolean overlaps(Interval other) {
            return from < other.to && other.from < to;
        }
    }

    private final ServerSocket server;
    private final ExecutorService threads;
    private final List<Interval> intervals = new ArrayList<>(); // guarded by this
    private final List<String> staleAccepted = new ArrayList<>(); // guarded by this
    private final List<String> writes = new ArrayList<>(); // guarded by this
    private final List<Socket> sockets = new ArrayList<>(); // guarded by this
    private long highestWritten = Long.MIN_VALUE; // guarded by this
    private long highestGranted = Long.MIN_VALUE; // guarded by this
    private boolean closed; // guarded by this

    /**
     * Opens the register on a free port of 127.0.0.1.
     *
     * @throws UncheckedIOException if the socket cannot be opened
     */
    public FencedRegister() {
        try {
            server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the fenced register's socket", e);
        }
        threads = Executors.newFixedThreadPool(CONNECTIONS + 1, r -> {
            Thread t = new Thread(r, "lockspi-tck-register");
            t.setDaemon(true);
            return t;
        });
        threads.execute(this::acceptLoop);
    }

    /** @return the loopback port child JVMs send their lines to */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * A guarded write with a fencing token.
     *
     * @param client who writes, for the record
     * @param token  the writer's fencing token
     * @return whether the resource accepted it
     */
    public synchronized boolean write(String client, long token) {
        boolean ok = token >= highestWritten;
        writes.add(client + ":" + token + (ok ? " OK" : " STALE"));
        if (ok) {
            highestWritten = token;
            if (token < highestGranted) {
                staleAccepted.add(client + " wrote with token " + token + " after token " + highestGranted
                        + " was granted");
            }
        }
        return ok;
    }

    /**
     * Records that the client's lease with this token says HELD, from now on.
     *
     * @param client the holder
     * @param token  its token (any distinct number without fencing tokens)
     */
    public synchronized void acquired(String client, long token) {
        intervals.add(new Interval(client, token, System.nanoTime(), Long.MAX_VALUE, null));
        highestGranted = Math.max(highestGranted, token);
    }

    /**
     * Closes the client's open interval with this token, if any: its lease was seen not HELD.
     *
     * @param client the holder
     * @param token  its token
     * @param state  the state it was seen in, for the record
     */
    public synchronized void ended(String client, long token, String state) {
        long now = System.nanoTime();
        for (int i = 0; i < intervals.size(); i++) {
            Interval open = intervals.get(i);
            if (open.client.equals(client) && open.token == token && open.to == Long.MAX_VALUE) {
                intervals.set(i, new Interval(client, token, open.from, now, state));
            }
        }
    }

    /** @return every interval so far, in the order they began */
    public synchronized List<Interval> intervals() {
        return List.copyOf(intervals);
    }

    /** @return every two intervals of different clients that share a moment, described */
    public synchronized List<String> overlaps() {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i++) {
            for (int j = i + 1; j < intervals.size(); j++) {
                Interval a = intervals.get(i);
                Interval b = intervals.get(j);
                if (!a.client.equals(b.client) && a.overlaps(b)) {
                    found.add(describe(a) + " overlaps " + describe(b));
                }
            }
        }
        return found;
    }

    /** @return the writes accepted although a greater token had been granted, described */
    public synchronized List<String> acceptedStaleWrites() {
        return List.copyOf(staleAccepted);
    }

    /** @return every write, as {@code client:token OK|STALE}, in order */
    public synchronized List<String> writes() {
        return List.copyOf(writes);
    }

    private String describe(Interval interval) {
        long to = interval.to == Long.MAX_VALUE ? -1 : (interval.to - interval.from) / 1_000_000;
        return interval.client + "#" + interval.token + " [HELD for " + (to < 0 ? "still open" : to + " ms")
                + (interval.end == null ? "" : ", then " + interval.end) + "]";
    }

    /**
     * Sends one line to a register on this machine and returns its answer; for child JVMs.
     *
     * @param port the register's port
     * @param line the request
     * @return the answer line
     * @throws UncheckedIOException if the register cannot be reached within 5 s
     */
    public static String request(int port, String line) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.setSoTimeout(5_000);
            Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
            out.write(line + "\n");
            out.flush();
            BufferedReader in = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String answer = in.readLine();
            if (answer == null) {
                throw new IOException("the register closed the connection without an answer to: " + line);
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the fenced register on port " + port, e);
        }
    }

    private void acceptLoop() {
        while (true) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            synchronized (this) {
                if (closed) {
                    closeQuietly(socket);
                    return;
                }
                sockets.add(socket);
            }
            threads.execute(() -> serve(socket));
        }
    }

    private void serve(Socket socket) {
        try (socket;
             BufferedReader in = new BufferedReader(
                     new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
             Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8)) {
            socket.setSoTimeout(30_000);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(answer(line) + "\n");
                out.flush();
            }
        } catch (SocketException e) {
            // closed by close() or by the client
        } catch (IOException e) {
            // a broken client connection ends only that connection
        } finally {
            synchronized (this) {
                sockets.remove(socket);
            }
        }
    }

    private String answer(String line) {
        if (line.length() > MAX_LINE) {
            return "ERROR line longer than " + MAX_LINE + " characters";
        }
        String[] words = line.strip().split(" ");
        try {
            switch (words[0]) {
                case "WRITE":
                    if (words.length == 3) {
                        return write(words[1], Long.parseLong(words[2])) ? "OK" : "STALE";
                    }
                    break;
                case "ACQUIRED":
                    if (words.length == 3) {
                        acquired(words[1], Long.parseLong(words[2]));
                        return "OK";
                    }
                    break;
                case "ENDED":
                    if (words.length == 4) {
                        ended(words[1], Long.parseLong(words[2]), words[3]);
                        return "OK";
                    }
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            return "ERROR token is not a number: " + line;
        }
        return "ERROR unknown request: " + line;
    }

    @Override
    public void close() {
        List<Socket> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open = new ArrayList<>(sockets);
        }
        closeQuietly(server);
        open.forEach(FencedRegister::closeQuietly);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing on the way out: nothing to do
        }
    }
}
