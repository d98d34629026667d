package org.lockspi.tck.support;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One whole message of a client connection as a {@link WireProtocol} reads it: a request (client to server) or a
 * response (server to client), named by its operation ({@code create}, {@code getData}, {@code EVALSHA <sha>},
 * {@code SUBSCRIBE}), with a few {@link Trait traits} that let the kit choose a fault without knowing the protocol.
 * A response refers to the request it answers; a message the server sends unasked (a watch notification, a
 * pub/sub message) is a response with no request and the trait {@link Trait#PUSH}.
 *
 * <p>Immutable; compared by identity (a response's {@link #request()} is the very request the protocol read).
 */
public final class WireMessage {

    /** Which way a message goes. */
    public enum Direction {
        /** From the client to the server: a request, and the opening of a session (ZooKeeper's ConnectRequest). */
        REQUEST,
        /** From the server to the client: an answer, or a message nobody asked for ({@link Trait#PUSH}). */
        RESPONSE
    }

    /** What the kit needs to know of a message to pick one to drop or delay. */
    public enum Trait {
        /**
         * A request that may change the server's state: ZooKeeper {@code create}, {@code delete}, {@code setData},
         * {@code multi}; Redis {@code SET}, {@code DEL}, {@code EVAL}/{@code EVALSHA} (a script may write).
         */
        WRITE,
        /**
         * A request that asks the server to wake the client later: ZooKeeper's reads with their watch flag set,
         * {@code addWatch}, {@code setWatches}; Redis {@code SUBSCRIBE}, {@code PSUBSCRIBE}, {@code SSUBSCRIBE}.
         */
        WAKEUP,
        /** A request, or its answer, that only keeps the connection alive: ZooKeeper's ping, Redis {@code PING}. */
        KEEPALIVE,
        /** A response that reports a failure: a ZooKeeper reply whose {@code err} is not 0, a RESP error reply. */
        ERROR,
        /** A response that answers no request: a ZooKeeper watch notification, a Redis pub/sub message. */
        PUSH
    }

    private final Direction direction;
    private final String operation;
    private final String detail;
    private final Set<Trait> traits;
    private final WireMessage request;

    private WireMessage(Direction direction, String operation, String detail, Set<Trait> traits,
                        WireMessage request) {
        this.direction = direction;
        this.operation = Objects.requireNonNull(operation, "operation");
        this.detail = detail == null ? "" : detail;
        this.traits = traits;
        this.request = request;
    }

    /**
     * @param operation the request's operation, e.g. {@code create2} or {@code EVALSHA 3f1c...}
     * @param detail    what it is about, for reports (a path, a key), or {@code ""}
     * @param traits    its traits
     * @return a request
     */
    public static WireMessage request(String operation, String detail, Trait... traits) {
        return new WireMessage(Direction.REQUEST, operation, detail, traitSet(traits), null);
    }

    /**
     * @param request the request it answers
     * @param detail  what it says, for reports (an error's name), or {@code ""}
     * @param traits  its traits ({@link Trait#ERROR} for a failure)
     * @return a response to {@code request}, named by its operation
     */
    public static WireMessage response(WireMessage request, String detail, Trait... traits) {
        Objects.requireNonNull(request, "request");
        if (request.direction != Direction.REQUEST) {
            throw new IllegalArgumentException("a response answers a request, not " + request);
        }
        return new WireMessage(Direction.RESPONSE, request.operation, detail, traitSet(traits), request);
    }

    /**
     * @param operation what the server sends, e.g. {@code notification} or {@code message}
     * @param detail    what it is about, for reports
     * @return a response that answers no request, with the trait {@link Trait#PUSH}
     */
    public static WireMessage push(String operation, String detail) {
        return new WireMessage(Direction.RESPONSE, operation, detail, traitSet(Trait.PUSH), null);
    }

    private static Set<Trait> traitSet(Trait... traits) {
        EnumSet<Trait> set = EnumSet.noneOf(Trait.class);
        for (Trait trait : traits) {
            set.add(Objects.requireNonNull(trait, "trait"));
        }
        return Collections.unmodifiableSet(set);
    }

    /** @return which way it goes */
    public Direction direction() {
        return direction;
    }

    /** @return its operation; a response's is its request's */
    public String operation() {
        return operation;
    }

    /** @return what it is about, for reports; {@code ""} if nothing */
    public String detail() {
        return detail;
    }

    /** @return its traits, unmodifiable */
    public Set<Trait> traits() {
        return traits;
    }

    /**
     * @param trait a trait
     * @return whether the message has it
     */
    public boolean is(Trait trait) {
        return traits.contains(trait);
    }

    /** @return the request a response answers; null for a request or a {@link Trait#PUSH} */
    public WireMessage request() {
        return request;
    }

    /** @return e.g. {@code REQUEST getData /tck/a/_c_..-lock-0000000001 watch [WAKEUP]} */
    @Override
    public String toString() {
        return direction + " " + operation + (detail.isEmpty() ? "" : " " + detail) + (traits.isEmpty() ? ""
                : " " + traits);
    }
}
