package org.lockspi.bench;

import java.nio.file.Path;
import java.util.List;

import org.lockspi.bench.internal.Bench;
import org.lockspi.bench.internal.Chart;
import org.lockspi.bench.internal.CommandLine;
import org.lockspi.bench.internal.Ratios;
import org.lockspi.bench.internal.RawResults;
import org.lockspi.bench.internal.Report;
import org.lockspi.bench.internal.Results;
import org.lockspi.bench.internal.Settings;

/**
 * Runs the ZooKeeper-vs-Redis trade-off study and writes its report and chart.
 *
 * <pre>
 * java org.lockspi.bench.BenchMain [--full | --quick | --smoke] [--report docs/tradeoffs.md]
 * </pre>
 *
 * The chart is written next to the report as {@code tradeoffs.png} (the report's name with {@code .png}), the raw
 * results as {@code tradeoffs-results.csv} (one row per measurement, {@link RawResults}). The
 * virtual-thread scenario runs in a child JVM on a Java 21+ runtime: {@code -Dbench.jdk21=<JDK home>}, else this
 * JVM if new enough, {@code JAVA_HOME}, or the newest under {@code /usr/lib/jvm}; with none it is reported not run.
 * Exit status 0 when every scenario produced its rows, 1 when one failed.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLine line = CommandLine.parse(args);
        Results results = run(Settings.of(line.mode()), line.report());
        System.exit(results == null ? 1 : 0);
    }

    /**
     * Runs and writes the report and chart.
     *
     * @return the results
     */
    public static Results run(Settings settings, Path report) throws Exception {
        Results results = new Bench(settings, System.out).run();
        List<Ratios.Ratio> ratios = Ratios.of(results);
        String name = report.getFileName().toString();
        String chart = (name.endsWith(".md") ? name.substring(0, name.length() - 3) : name) + ".png";
        Path chartPath = report.toAbsolutePath().resolveSibling(chart);
        Chart.write(results, chartPath);
        java.nio.file.Files.createDirectories(report.toAbsolutePath().getParent());
        String markdown = Report.markdown(results, ratios, chart);
        // failover is measured by the test suite, not here; its summary beside the report is carried into it
        Path failover = report.toAbsolutePath().resolveSibling("failover.md");
        if (java.nio.file.Files.isRegularFile(failover)) {
            markdown += Report.included(java.nio.file.Files.readString(failover), failover.getFileName().toString());
        }
        // so is the JDBC study, a run of its own (-Pbench-jdbc, org.lockspi.bench.jdbc.JdbcBenchMain)
        Path jdbc = report.toAbsolutePath().resolveSibling("tradeoffs-jdbc.md");
        if (java.nio.file.Files.isRegularFile(jdbc)) {
            markdown += Report.included(java.nio.file.Files.readString(jdbc), jdbc.getFileName().toString(),
                    "measured by the JDBC study (`-Pbench-jdbc`), a run of its own");
        }
        // the curves (CurvesMain, -Pbench-curves) are a run of their own: their section is carried over
        markdown += CurvesMain.carriedSection(report);
        java.nio.file.Files.writeString(report, markdown);
        Path raw = RawResults.beside(report, "-results");
        RawResults.of(results).write(raw);
        System.out.println();
        System.out.println("[bench] report: " + report.toAbsolutePath());
        System.out.println("[bench] chart:  " + chartPath);
        System.out.println("[bench] raw:    " + raw);
        System.out.println("[bench] run time: " + results.runMillis / 1000 + " s (" + settings.mode() + ")");
        System.out.println();
        System.out.print(Ratios.text(ratios));
        return results;
    }
}
