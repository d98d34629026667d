package org.lockspi.tck.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.support.WirePassage;

/**
 * Reads what a provider sent through a {@link org.lockspi.tck.support.TcpProxy} with a wire protocol during a clean
 * run, to choose the message a fault then strikes (§24): the kit knows no protocol, only the operations the
 * protocol names and their traits.
 */
public final class Traffic {
    private Traffic() {
    }

    /**
     * An operation a fault is to strike, and which of its messages after arming.
     *
     * @param operation the operation, as the protocol names it
     * @param nth       which message of it, from 1
     */
    public record Choice(String operation, int nth) {
        @Override
        public String toString() {
            return operation + (nth == 1 ? "" : " #" + nth);
        }
    }

    /**
     * The request that created the holder's state: of the requests that may write and were answered without an
     * error in the window, the last; counted among the answers without error to its operation in the window (a
     * create that failed because a parent was missing, and was then made again, does not count).
     *
     * @param log  the proxy's traffic
     * @param from the window's start ({@link System#nanoTime()})
     * @param to   its end
     * @return the choice, or empty if no such request was answered in the window
     */
    public static Optional<Choice> lastAppliedWrite(List<WirePassage> log, long from, long to) {
        List<WireMessage> applied = between(log, from, to).stream().map(WirePassage::message)
                .filter(m -> m.direction() == WireMessage.Direction.RESPONSE && m.request() != null
                        && m.request().is(WireMessage.Trait.WRITE) && !m.is(WireMessage.Trait.ERROR))
                .collect(Collectors.toList());
        if (applied.isEmpty()) {
            return Optional.empty();
        }
        String operation = applied.get(applied.size() - 1).operation();
        int nth = (int) applied.stream().filter(m -> m.operation().equals(operation)).count();
        return Optional.of(new Choice(operation, nth));
    }

    /**
     * @param log  the proxy's traffic
     * @param from the window's start ({@link System#nanoTime()})
     * @param to   its end
     * @param kind which requests count
     * @return the operation of the first such request in the window, as the next one of it; empty if none
     */
    public static Optional<Choice> firstRequest(List<WirePassage> log, long from, long to,
                                                Predicate<WireMessage> kind) {
        return between(log, from, to).stream().map(WirePassage::message)
                .filter(m -> m.direction() == WireMessage.Direction.REQUEST && kind.test(m)).findFirst()
                .map(m -> new Choice(m.operation(), 1));
    }

    /**
     * @param log  the proxy's traffic
     * @param from the window's start ({@link System#nanoTime()})
     * @param kind which requests count
     * @return whether a request of that kind was passed on to the server since {@code from}
     */
    public static boolean sentSince(List<WirePassage> log, long from, Predicate<WireMessage> kind) {
        return log.stream().anyMatch(p -> p.at() - from >= 0 && p.fate() != WirePassage.Fate.DROPPED
                && p.message().direction() == WireMessage.Direction.REQUEST && kind.test(p.message()));
    }

    /**
     * @param log  the proxy's traffic
     * @param from the window's start ({@link System#nanoTime()})
     * @param to   its end
     * @return the requests of the window by operation, for reports: {@code create2 x2, getChildren}
     */
    public static String requests(List<WirePassage> log, long from, long to) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (WirePassage p : between(log, from, to)) {
            if (p.message().direction() == WireMessage.Direction.REQUEST) {
                counts.merge(p.message().operation(), 1, Integer::sum);
            }
        }
        return counts.isEmpty() ? "(none)" : counts.entrySet().stream()
                .map(e -> e.getKey() + (e.getValue() == 1 ? "" : " x" + e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /**
     * The request to strike as a renewal, from what a client sent since {@code from} while it held a lease and did
     * nothing: the first that may write; else, once one has come twice (a whole period seen) or {@code anyway}, the
     * first that is not a keep-alive; else ({@code anyway}) the first keep-alive.
     *
     * @param log    the proxy's traffic
     * @param from   when the client began to hold and do nothing ({@link System#nanoTime()})
     * @param anyway whether to choose from what came so far, however little
     * @return the choice, or empty if none can be made yet
     */
    public static Optional<Choice> renewal(List<WirePassage> log, long from, boolean anyway) {
        long now = System.nanoTime();
        Optional<Choice> write = firstRequest(log, from, now, m -> m.is(WireMessage.Trait.WRITE));
        if (write.isPresent()) {
            return write;
        }
        Optional<Choice> other = firstRequest(log, from, now, m -> !m.is(WireMessage.Trait.KEEPALIVE));
        boolean twice = other.isPresent() && between(log, from, now).stream()
                .filter(p -> p.message().direction() == WireMessage.Direction.REQUEST
                        && p.message().operation().equals(other.get().operation())).count() >= 2;
        if (twice || anyway && other.isPresent()) {
            return other;
        }
        return anyway ? firstRequest(log, from, now, m -> true) : Optional.empty();
    }

    private static List<WirePassage> between(List<WirePassage> log, long from, long to) {
        return log.stream().filter(p -> p.at() - from >= 0 && p.at() - to <= 0).collect(Collectors.toList());
    }
}
