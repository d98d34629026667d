package org.lockspi.tck.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.support.WireMessage.Direction;
import org.lockspi.tck.support.WireMessage.Trait;
import org.lockspi.tck.support.WireProtocol;

/**
 * RESP, the Redis protocol (RESP2 and the reply types of RESP3), as a {@link WireProtocol}. A request is an array
 * of bulk strings (or an inline command line), named by its command in upper case; {@code EVALSHA <sha>} and
 * {@code EVAL <sha1 of the script>} name each script apart, and the container commands take their subcommand
 * ({@code CLIENT SETNAME}). Redis answers a connection's requests in order, so each reply answers the oldest request
 * not yet answered, except what a subscribed connection is sent unasked ({@code message}, {@code pmessage},
 * {@code smessage}, and RESP3 pushes), and the confirmations of a {@code SUBSCRIBE} of several channels, one per
 * channel.
 *
 * <p>Traits: the commands that change keys (and the scripts, which may) write; {@code SUBSCRIBE},
 * {@code PSUBSCRIBE} and {@code SSUBSCRIBE} register wake-ups; {@code PING} keeps alive; an error reply is an
 * error.
 */
public final class RespWire implements WireProtocol {
    private static final Set<String> WRITES = Set.of("SET", "SETNX", "SETEX", "PSETEX", "GETSET", "GETDEL", "GETEX",
            "MSET", "MSETNX", "DEL", "UNLINK", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "RENAME",
            "RENAMENX", "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "APPEND", "SETRANGE", "HSET", "HSETNX",
            "HMSET", "HDEL", "HINCRBY", "LPUSH", "RPUSH", "LPOP", "RPOP", "LREM", "LSET", "LTRIM", "SADD", "SREM",
            "SPOP", "SMOVE", "ZADD", "ZREM", "ZINCRBY", "ZPOPMIN", "ZPOPMAX", "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK",
            "XADD", "XDEL", "XTRIM", "FLUSHDB", "FLUSHALL", "COPY", "MOVE", "RESTORE", "EVAL", "EVALSHA", "FCALL");
    private static final Set<String> SUBSCRIBES = Set.of("SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE");
    private static final Set<String> UNSUBSCRIBES = Set.of("UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE");
    private static final Set<String> MESSAGES = Set.of("message", "pmessage", "smessage");
    private static final Set<String> CONTAINERS = Set.of("CLIENT", "SCRIPT", "CONFIG", "CLUSTER", "COMMAND",
            "OBJECT", "MEMORY", "ACL", "FUNCTION", "XINFO", "PUBSUB", "SENTINEL", "LATENCY", "SLOWLOG", "MODULE");
    private static final int DETAIL = 80;

    @Override
    public String name() {
        return "RESP (Redis)";
    }

    @Override
    public WireProtocol.Conversation newConversation() {
        return new Conversation();
    }

    /** A request waiting for its answers: one, or one per channel of a (un)subscription (-1: until none is left). */
    private static final class Asked {
        final WireMessage request;
        final String command;
        int answers;

        Asked(WireMessage request, String command, int answers) {
            this.request = request;
            this.command = command;
            this.answers = answers;
        }
    }

    /** One connection: the requests not yet answered, in order, and whether it is subscribed. */
    private static final class Conversation implements WireProtocol.Conversation {
        private final Deque<Asked> pending = new ArrayDeque<>(); // guarded by this
        private boolean subscribed; // guarded by this

        @Override
        public int frameLength(Direction direction, byte[] bytes, int from, int to) {
            if (from >= to) {
                return -1;
            }
            int end = direction == Direction.REQUEST && bytes[from] != '*' ? lineEnd(bytes, from, to)
                    : Values.end(bytes, from, to);
            return end < 0 ? -1 : end - from;
        }

        @Override
        public synchronized WireMessage describe(Direction direction, byte[] bytes, int from, int length) {
            return direction == Direction.REQUEST ? request(bytes, from, length) : response(bytes, from, length);
        }

        private WireMessage request(byte[] bytes, int from, int length) {
            List<String> args = new ArrayList<>();
            if (bytes[from] == '*') {
                for (Object arg : (List<?>) Values.read(bytes, from, from + length)) {
                    args.add(Values.text(arg));
                }
            } else {
                for (String word : new String(bytes, from, length, StandardCharsets.UTF_8).strip().split("\\s+")) {
                    if (!word.isEmpty()) {
                        args.add(word);
                    }
                }
            }
            if (args.isEmpty()) {
                throw new IllegalArgumentException("an empty RESP request");
            }
            String command = args.get(0).toUpperCase(Locale.ROOT);
            String op = command;
            String detail = args.size() > 1 ? args.get(1) : "";
            if (command.equals("EVALSHA") && args.size() > 1) {
                op = "EVALSHA " + args.get(1).toLowerCase(Locale.ROOT);
                detail = scriptKeys(args);
            } else if (command.equals("EVAL") && args.size() > 1) {
                op = "EVAL " + sha1(args.get(1));
                detail = scriptKeys(args);
            } else if (CONTAINERS.contains(command) && args.size() > 1) {
                op = command + " " + args.get(1).toUpperCase(Locale.ROOT);
                detail = args.size() > 2 ? args.get(2) : "";
            }
            List<Trait> traits = new ArrayList<>();
            if (WRITES.contains(command)) {
                traits.add(Trait.WRITE);
            }
            if (SUBSCRIBES.contains(command)) {
                traits.add(Trait.WAKEUP);
            }
            if (command.equals("PING")) {
                traits.add(Trait.KEEPALIVE);
            }
            WireMessage m = WireMessage.request(op, shorten(detail), traits.toArray(new Trait[0]));
            int answers = SUBSCRIBES.contains(command) || UNSUBSCRIBES.contains(command)
                    ? (args.size() > 1 ? args.size() - 1 : -1) : 1;
            pending.add(new Asked(m, command, answers));
            return m;
        }

        private WireMessage response(byte[] bytes, int from, int length) {
            byte type = bytes[from];
            Object value = Values.read(bytes, from, from + length);
            String kind = value instanceof List<?> list && !list.isEmpty() && !(list.get(0) instanceof List)
                    ? Values.text(list.get(0)).toLowerCase(Locale.ROOT) : "";
            if ((type == '>' || subscribed && type == '*') && MESSAGES.contains(kind)) {
                List<?> list = (List<?>) value;
                return WireMessage.push(kind, list.size() > 1 ? shorten(Values.text(list.get(1))) : "");
            }
            Asked head = pending.peek();
            if (head == null) {
                return WireMessage.push(type == '>' ? kind : "reply", "answers no request seen");
            }
            if (kind.endsWith("subscribe") && (SUBSCRIBES.contains(head.command)
                    || UNSUBSCRIBES.contains(head.command))) {
                // one confirmation per channel: [kind, channel, subscriptions left]
                List<?> list = (List<?>) value;
                long left = list.size() > 2 && list.get(2) instanceof Long count ? count : 0;
                subscribed = left > 0;
                if (head.answers > 0 ? --head.answers == 0 : left == 0) {
                    pending.poll();
                }
                return WireMessage.response(head.request, list.size() > 1 ? shorten(Values.text(list.get(1))) : "");
            }
            pending.poll();
            if (type == '-' || type == '!') {
                return WireMessage.response(head.request, shorten(Values.text(value)), Trait.ERROR);
            }
            String detail = value == null ? "(nil)" : value instanceof List<?> list ? list.size() + " items"
                    : shorten(Values.text(value));
            return head.request.is(Trait.KEEPALIVE) ? WireMessage.response(head.request, detail, Trait.KEEPALIVE)
                    : WireMessage.response(head.request, detail);
        }
    }

    /** @return the keys of an EVAL or EVALSHA ({@code numkeys} then the keys), for the detail */
    private static String scriptKeys(List<String> args) {
        try {
            int keys = args.size() > 2 ? Integer.parseInt(args.get(2)) : 0;
            return String.join(" ", args.subList(3, Math.min(args.size(), 3 + Math.max(0, keys))));
        } catch (NumberFormatException e) {
            return "";
        }
    }

    private static String sha1(String script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(script.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    private static String shorten(String text) {
        return text.length() <= DETAIL ? text : text.substring(0, DETAIL) + "...";
    }

    /** @return the index after the line that starts at {@code from} (its CRLF, or a bare LF), or -1 */
    private static int lineEnd(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** RESP values: where one ends, and what it holds. */
    static final class Values {
        private Values() {
        }

        /**
         * @return the index after the value that starts at {@code from}, or -1 if it is not whole before {@code to}
         * @throws IllegalArgumentException if the bytes are no RESP value
         */
        static int end(byte[] bytes, int from, int to) {
            if (from >= to) {
                return -1;
            }
            byte type = bytes[from];
            int line = lineEnd(bytes, from, to);
            if (line < 0) {
                return -1;
            }
            switch (type) {
                case '+': case '-': case ':': case '_': case ',': case '#': case '(':
                    return line;
                case '$': case '!': case '=': {
                    long n = number(bytes, from, line);
                    if (n < 0) {
                        return line;
                    }
                    long end = line + n + 2;
                    return end <= to ? (int) end : -1;
                }
                case '*': case '~': case '>': case '%': case '|': {
                    long n = number(bytes, from, line);
                    int at = line;
                    for (long i = 0, count = type == '%' || type == '|' ? 2 * n : n; i < count; i++) {
                        at = end(bytes, at, to);
                        if (at < 0) {
                            return -1;
                        }
                    }
                    return at;
                }
                default:
                    throw new IllegalArgumentException("not a RESP type: 0x" + Integer.toHexString(type & 0xff));
            }
        }

        /**
         * Reads a whole value: simple and bulk strings as text, integers as {@link Long}, aggregates as lists
         * (maps flattened), nulls as null; an error as its text.
         */
        static Object read(byte[] bytes, int from, int to) {
            int[] at = {from};
            return read(bytes, at, to);
        }

        private static Object read(byte[] bytes, int[] at, int to) {
            int start = at[0];
            byte type = bytes[start];
            int line = lineEnd(bytes, start, to);
            if (line < 0) {
                throw new IllegalArgumentException("a RESP value ends early");
            }
            at[0] = line;
            String text = new String(bytes, start + 1, Math.max(0, line - start - 3), StandardCharsets.UTF_8);
            switch (type) {
                case ':':
                    return Long.parseLong(text);
                case '_':
                    return null;
                case '$': case '!': case '=': {
                    int n = (int) number(bytes, start, line);
                    if (n < 0) {
                        return null;
                    }
                    at[0] = line + n + 2;
                    return new String(bytes, line, n, StandardCharsets.UTF_8);
                }
                case '*': case '~': case '>': case '%': case '|': {
                    long n = number(bytes, start, line);
                    if (n < 0) {
                        return null;
                    }
                    List<Object> items = new ArrayList<>();
                    for (long i = 0, count = type == '%' || type == '|' ? 2 * n : n; i < count; i++) {
                        items.add(read(bytes, at, to));
                    }
                    return items;
                }
                default:
                    return text;
            }
        }

        static String text(Object value) {
            return value == null ? "(nil)" : value.toString();
        }

        private static long number(byte[] bytes, int from, int lineEnd) {
            String digits = new String(bytes, from + 1, lineEnd - from - 1, StandardCharsets.US_ASCII).strip();
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a RESP length: " + digits, e);
            }
        }
    }
}
