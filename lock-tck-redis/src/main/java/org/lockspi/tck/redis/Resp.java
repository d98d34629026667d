package org.lockspi.tck.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One plain connection speaking RESP2, the Redis protocol, for the fixtures' own look behind a provider's back:
 * so that they need no Redis client library (and so no version of one), whatever client the provider under test
 * uses. Enough of the protocol for commands and their replies, nothing more: no TLS, no pipelining, no pub/sub.
 *
 * <p>Replies are decoded as a generic client does: simple and bulk strings as {@code byte[]}, integers as
 * {@link Long}, arrays as {@code List<Object>}, a null bulk string or array as {@code null}; an error reply throws
 * {@link RespError}. Not thread-safe: one caller at a time.
 */
final class Resp implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 5_000;

    private final String address;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private Resp(String address, Socket socket) throws IOException {
        this.address = address;
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** An error reply of the server ({@code -ERR ...}), with its text. */
    static final class RespError extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        RespError(String message) {
            super(message);
        }
    }

    /**
     * @param address the server
     * @return a new connection, to be closed by the caller
     * @throws UncheckedIOException if the server cannot be reached within 2 s
     */
    static Resp connect(InetSocketAddress address) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            return new Resp(address.getHostString() + ":" + address.getPort(), socket);
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot connect to Redis at " + address, e);
        }
    }

    /**
     * Sends one command and reads its reply.
     *
     * @param command the command and its arguments
     * @return the decoded reply
     * @throws RespError            if the server answers with an error
     * @throws UncheckedIOException if the connection fails
     */
    Object call(String... command) {
        try {
            out.write(('*' + Integer.toString(command.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String argument : command) {
                byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
                out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bytes);
                out.write('\r');
                out.write('\n');
            }
            out.flush();
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException(command[0] + " to Redis at " + address + " failed", e);
        }
    }

    /**
     * @param command the command and its arguments
     * @return the reply as text (a bulk or simple string), or {@code null} for a null reply
     */
    String text(String... command) {
        Object reply = call(command);
        return reply == null ? null : reply instanceof byte[] ? new String((byte[]) reply, StandardCharsets.UTF_8)
                : reply.toString();
    }

    /**
     * @param command a command whose reply is a flat array of field, value, field, value ...
     * @return the fields and their values as text
     */
    Map<String, String> fields(String... command) {
        Map<String, String> fields = new TreeMap<>();
        List<?> reply = (List<?>) call(command);
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            fields.put(utf8(reply.get(i)), utf8(reply.get(i + 1)));
        }
        return fields;
    }

    /**
     * @param section a section of {@code INFO}, e.g. {@code replication}
     * @return its text
     */
    String info(String section) {
        return text("INFO", section);
    }

    static String utf8(Object value) {
        return value instanceof byte[] ? new String((byte[]) value, StandardCharsets.UTF_8) : String.valueOf(value);
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("the server closed the connection");
        }
        String line = line();
        switch (type) {
            case '+':
                return line.getBytes(StandardCharsets.UTF_8);
            case '-':
                throw new RespError(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length);
                if (bytes.length < length || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("a bulk string of " + length + " bytes ended early");
                }
                return bytes;
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("not a RESP2 reply type: '" + (char) type + "'");
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the server closed the connection in a reply");
            }
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing was pending: the reply of every call has been read
        }
    }

    /**
     * The cluster slot of a key, as Redis computes it: CRC16 (XMODEM) of the key, or of its hash tag (the part
     * between the first {@code '{'} and the next {@code '}'}, if not empty), modulo 16384.
     *
     * @param key the key
     * @return its slot, 0 to 16383
     */
    static int slot(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int from = 0;
        int to = bytes.length;
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                from = key.substring(0, open + 1).getBytes(StandardCharsets.UTF_8).length;
                to = key.substring(0, close).getBytes(StandardCharsets.UTF_8).length;
            }
        }
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return (crc & 0xffff) % 16384;
    }
}
