package org.lockspi.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The figures of one soak, worked out from its journal, its outages and its log lines after the run. */
final class SoakFigures {
    private final Journal journal;
    private final List<Outage> outages;
    private final List<LogCapture.Line> lines;
    private final long loadStart;
    private final long loadEnd;

    SoakFigures(Journal journal, List<Outage> outages, List<LogCapture.Line> lines, long loadStart, long loadEnd) {
        this.journal = journal;
        this.outages = outages;
        this.lines = lines;
        this.loadStart = loadStart;
        this.loadEnd = loadEnd;
    }

    /** @return the calls that ended with an unexpected exception */
    List<Journal.Call> otherOutcomes() {
        return journal.calls().stream().filter(c -> c.outcome == Journal.Outcome.OTHER).collect(Collectors.toList());
    }

    /** @return the call among {@code calls} that blocked longest (not counting those the soak's end interrupted) */
    Journal.Call slowest(Collection<Journal.Call> calls) {
        return calls.stream().filter(c -> c.outcome != Journal.Outcome.STOPPED)
                .max(Comparator.comparingLong(Journal.Call::blockedNanos)).orElse(null);
    }

    /** @return whether the interval overlaps an outage: from its stop until both instances made a locked call again */
    private boolean duringAnOutage(long from, long to) {
        return outages.stream().anyMatch(o -> from - o.back() < 0 && to - o.stop > 0);
    }

    /** @return each pair of sections under one lock that overlapped in time (none, if the locks exclude) */
    List<String> overlaps() {
        Map<String, List<Journal.Section>> byLock = journal.sections().stream()
                .collect(Collectors.groupingBy(Journal.Section::lock, TreeMap::new, Collectors.toList()));
        List<String> found = new ArrayList<>();
        byLock.forEach((lock, sections) -> {
            sections.sort(Comparator.comparingLong(Journal.Section::enter));
            Journal.Section latest = null; // the section seen so far that ends last
            for (Journal.Section s : sections) {
                if (latest != null && s.enter() - latest.exit() < 0) {
                    found.add(lock + ": " + latest.instance() + " until " + OutageSoak.ms(latest.exit() - loadStart)
                            + " ms, " + s.instance() + " from " + OutageSoak.ms(s.enter() - loadStart) + " ms");
                }
                if (latest == null || s.exit() - latest.exit() > 0) {
                    latest = s;
                }
            }
        });
        return found;
    }

    /**
     * A period run twice where the later run began within lockAtLeastFor of the period's start: the lock did not keep
     * the other instance out for lockAtLeastFor. (A firing later than lockAtLeastFor, a scheduler starved of CPU, is
     * beyond what lockAtLeastFor covers, as with any scheduler lock: {@link #lateRuns()} counts those.)
     *
     * @return such periods, with their runs
     */
    List<String> periodsRunTwice() {
        return runsByPeriod().entrySet().stream()
                .filter(e -> e.getValue().stream().mapToLong(Journal.Run::lagMillis).sorted().skip(1)
                        .anyMatch(lag -> lag < SoakApp.JOB_AT_LEAST_MILLIS))
                .map(e -> "period " + e.getKey() + ": " + e.getValue()).collect(Collectors.toList());
    }

    /** @return the runs that began lockAtLeastFor or more after their period's start */
    List<Journal.Run> lateRuns() {
        return journal.runs().stream().filter(r -> r.lagMillis() >= SoakApp.JOB_AT_LEAST_MILLIS).toList();
    }

    private Map<Long, List<Journal.Run>> runsByPeriod() {
        return journal.runs().stream().collect(Collectors.groupingBy(Journal.Run::period, TreeMap::new,
                Collectors.toList()));
    }

    /** @return the lines logged before the first outage */
    List<LogCapture.Line> beforeOutages() {
        return lines.stream().filter(l -> l.nanos() - outages.get(0).stop < 0).collect(Collectors.toList());
    }

    /** @return the lines of the outage's window: from its stop to the next outage's stop (or the end of the load) */
    List<LogCapture.Line> window(Outage outage) {
        return lines.stream().filter(l -> l.nanos() - outage.stop >= 0 && l.nanos() - outage.next < 0)
                .collect(Collectors.toList());
    }

    /**
     * @return the starter's lines for runs of {@code instance} skipped because the lock server failed, logged up to
     *         {@code until} ({@code System.nanoTime()})
     */
    long skipLines(List<LogCapture.Line> window, String instance, long until) {
        return window.stream().filter(l -> l.source() == LogCapture.Source.STARTER_SKIP
                && l.thread().startsWith(instance + "-scheduling-") && l.nanos() - until <= 0).count();
    }

    /** @return how many batch calls ended with their lease lost in the outage's window */
    long lostBatches(Outage outage) {
        return journal.calls().stream().filter(c -> c.method.equals("batch") && c.outcome == Journal.Outcome.LOST
                && c.end - outage.stop >= 0 && c.end - outage.next < 0).count();
    }

    static long count(List<LogCapture.Line> window, LogCapture.Source source) {
        return window.stream().filter(l -> l.source() == source).count();
    }

    /** @return the soak's figures in one line */
    String summary(long begin, Duration leaseSpan) {
        List<Journal.Call> calls = journal.calls();
        Map<Journal.Outcome, Long> outcomes = calls.stream()
                .collect(Collectors.groupingBy(c -> c.outcome, TreeMap::new, Collectors.counting()));
        Journal.Call inOutages = slowest(calls.stream().filter(c -> duringAnOutage(c.start, c.end)).toList());
        Journal.Call otherwise = slowest(calls.stream().filter(c -> !duringAnOutage(c.start, c.end)).toList());
        Map<Long, List<Journal.Run>> periods = runsByPeriod();
        List<Journal.Run> runs = journal.runs();
        StringBuilder out = new StringBuilder();
        out.append(OutageSoak.ms(System.nanoTime() - begin) / 1000).append(" s in all (load ")
                .append(OutageSoak.ms(loadEnd - loadStart) / 1000).append(" s; T ").append(leaseSpan.toMillis())
                .append(" ms; outages ").append(perOutage(o -> o.length.toMillis() + "")).append(" ms)");
        out.append(" | calls ").append(calls.size()).append(" ").append(outcomes);
        out.append(" | max blocked ").append(blocked(inOutages)).append(" ms in outages, ").append(blocked(otherwise))
                .append(" ms otherwise (bound ").append(OutageSoak.FAIL_FAST.plus(OutageSoak.WAIT)
                        .plus(OutageSoak.SLACK).toMillis()).append(")");
        out.append(" | overlaps ").append(overlaps().size()).append(" in ").append(journal.sections().size())
                .append(" sections");
        out.append(" | job ").append(runs.size()).append(" runs in ").append(periods.size()).append(" periods, at most ")
                .append(periods.values().stream().mapToInt(List::size).max().orElse(0)).append(" per period; ")
                .append(lateRuns().size()).append(" began ").append(SoakApp.JOB_AT_LEAST).append(" or more late (max ")
                .append(runs.stream().mapToLong(Journal.Run::lagMillis).max().orElse(-1)).append(" ms)");
        out.append(" | WARN+ lines before the outages ").append(beforeOutages().size())
                .append("; per outage lockspi+starter/skipped runs/client (with a stack trace):");
        for (Outage outage : outages) {
            List<LogCapture.Line> window = window(outage);
            out.append(" ").append(count(window, LogCapture.Source.LOCKSPI) + count(window, LogCapture.Source.STARTER))
                    .append("/").append(count(window, LogCapture.Source.STARTER_SKIP))
                    .append("/").append(count(window, LogCapture.Source.CLIENT))
                    .append("(").append(window.stream().filter(LogCapture.Line::stack).count()).append(")");
        }
        out.append(" | per outage, a/b: health SUSPENDED after ")
                .append(perOutage(o -> perInstance(o.healthAfter.values(), t -> t < 0 ? "never" : OutageSoak.ms(t) + "")))
                .append(" ms, overall ").append(outages.stream().flatMap(o -> o.overall.values().stream()).distinct()
                        .collect(Collectors.joining(",")))
                .append("; failed acquisitions ").append(perOutage(o -> perInstance(o.failed.values(), String::valueOf)))
                .append("; lost transitions ").append(perOutage(o -> perInstance(o.lost.values(),
                        v -> String.valueOf(v.longValue()))))
                .append("; back to a locked call after ").append(perOutage(o -> perInstance(o.recovery.values(),
                        r -> r < 0 ? "never" : OutageSoak.ms(r) + ""))).append(" ms");
        return out.toString();
    }

    private static String blocked(Journal.Call call) {
        return call == null ? "-" : String.valueOf(OutageSoak.ms(call.blockedNanos()));
    }

    /** @return a figure of each outage, ' ' between them */
    private String perOutage(Function<Outage, String> show) {
        return outages.stream().map(show).collect(Collectors.joining(" "));
    }

    /** @return a figure of each instance, '/' between them */
    private static <T> String perInstance(Collection<T> values, Function<T, String> show) {
        return values.stream().map(show).collect(Collectors.joining("/"));
    }

    /** @return how many lines each logger logged, and how many of them with a stack trace */
    static Map<String, String> byLogger(List<LogCapture.Line> window) {
        Map<String, String> counts = new TreeMap<>();
        window.stream().collect(Collectors.groupingBy(LogCapture.Line::logger, TreeMap::new, Collectors.toList()))
                .forEach((logger, found) -> counts.put(logger, found.size() + "("
                        + found.stream().filter(LogCapture.Line::stack).count() + ")"));
        return counts;
    }

    /** @return the lines, one per line of text, for a failure message */
    static String lines(List<LogCapture.Line> lines) {
        return lines.stream().map(LogCapture.Line::toString).collect(Collectors.joining("\n  ", "\n  ", ""));
    }

    /** @return a call in words, for a failure message */
    static String describe(Journal.Call call) {
        return call.method + " by " + call.instance + ": " + call.outcome + " after "
                + OutageSoak.ms(call.end - call.start) + " ms" + (call.ran() ? ", body "
                + OutageSoak.ms(call.exit - call.enter) + " ms" : "") + (call.failure == null ? "" : ", " + call.failure)
                + (call.stuckAt == null ? "" : "; blocked at:" + call.stuckAt);
    }
}
