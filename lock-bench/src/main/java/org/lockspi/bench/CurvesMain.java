package org.lockspi.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.lockspi.bench.internal.CommandLine;
import org.lockspi.bench.internal.CurveReport;
import org.lockspi.bench.internal.CurveResults;
import org.lockspi.bench.internal.CurveSettings;
import org.lockspi.bench.internal.Curves;
import org.lockspi.bench.internal.RawResults;

/**
 * Runs the curves (how the cost grows with clients, locks, held leases and waiters, and a long run per provider)
 * and writes their section into the trade-off report, one chart per curve beside it, and the raw results file.
 *
 * <pre>
 * java org.lockspi.bench.CurvesMain [--full | --quick | --smoke] [--long-run SECONDS] [--report docs/tradeoffs.md]
 * </pre>
 *
 * The section sits between {@value #START} and {@value #END} in the report; a run replaces it (or appends it) and
 * leaves the rest alone, and a trade-off run ({@link BenchMain}) carries it over. The charts are
 * {@code tradeoffs-curve-<curve>.png}, the raw results {@code tradeoffs-curves.csv}. Exit status 0 when every
 * point was measured, 1 when one failed.
 */
public final class CurvesMain {
    static final String START = "<!-- curves: written by CurvesMain (-Pbench-curves), not by hand -->";
    static final String END = "<!-- /curves -->";

    private CurvesMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine line = CommandLine.parse(args, "--long-run");
        Duration longRun = null;
        if (line.option("--long-run") != null) {
            long seconds = Long.parseLong(line.option("--long-run"));
            if (seconds < 1) {
                throw new IllegalArgumentException("--long-run < 1 s: " + seconds);
            }
            longRun = Duration.ofSeconds(seconds);
        }
        CurveResults results = run(CurveSettings.of(line.mode(), longRun), line.report());
        boolean failed = results.points.stream().anyMatch(p -> p.error != null);
        System.exit(failed ? 1 : 0);
    }

    /** Runs the curves and writes the section, the charts and the raw results. */
    public static CurveResults run(CurveSettings settings, Path report) throws Exception {
        CurveResults results = new Curves(settings, System.out).run();
        Files.createDirectories(report.toAbsolutePath().getParent());
        String command = "./mvnw -q -Pbench-curves -pl lock-bench -am verify -DskipTests"
                + (settings.mode().equals("full") ? "" : " -Dbench.mode=--" + settings.mode())
                + " -Dbench.longRun=" + settings.longRun().toSeconds();
        String section = CurveReport.markdown(results, report, command);
        String existing = Files.isRegularFile(report) ? Files.readString(report) : "";
        Files.writeString(report, splice(existing, START + "\n" + section + END + "\n"));
        Path raw = RawResults.beside(report, "-curves");
        results.raw().write(raw);
        System.out.println();
        System.out.println("[bench] report: " + report.toAbsolutePath());
        System.out.println("[bench] raw:    " + raw);
        System.out.println("[bench] run time: " + results.runMillis / 1000 + " s (curves, " + settings.mode() + ")");
        for (CurveReport.Verdict v : CurveReport.verdicts(results)) {
            System.out.printf("  %-110s %10s  %-22s %s%n", v.target(), v.measured(), v.limit(),
                    v.holds() == null ? "not measured" : v.holds() ? "holds" : "MISSED");
        }
        return results;
    }

    /** @return the text with its curves section replaced by {@code block}, or with {@code block} appended */
    static String splice(String text, String block) {
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        if (start >= 0 && end > start) {
            return text.substring(0, start) + block + text.substring(end + END.length()).replaceFirst("^\n", "");
        }
        return text + (text.isEmpty() || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n") + block;
    }

    /**
     * @param report the trade-off report about to be rewritten
     * @return its curves section with a blank line before, to carry into the new report; empty if it has none
     */
    static String carriedSection(Path report) throws java.io.IOException {
        if (!Files.isRegularFile(report)) {
            return "";
        }
        String text = Files.readString(report);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        return start >= 0 && end > start ? "\n" + text.substring(start, end + END.length()) + "\n" : "";
    }
}
