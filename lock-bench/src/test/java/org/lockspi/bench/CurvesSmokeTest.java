package org.lockspi.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.lockspi.bench.internal.CurveResults;
import org.lockspi.bench.internal.CurveSettings;
import org.lockspi.bench.internal.Variant;

/**
 * Runs the curves with smoke-sized counts (the real servers, every curve, a handful of operations each) and checks
 * that the section, one chart per curve and the raw results are written, with figures for every point, and that
 * a later section replaces it in place; and that every backend (ZooKeeper, Redis, JDBC) is on every curve.
 */
class CurvesSmokeTest {

    @Test
    void smokeRunWritesEveryPoint() throws Exception {
        Path report = Path.of("target", "curves-smoke", "tradeoffs.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, "# before\n");
        CurveResults results = CurvesMain.run(CurveSettings.smoke(), report);

        String md = Files.readString(report);
        assertTrue(md.startsWith("# before\n"), "the rest of the report is left alone");
        assertEquals(1, md.split(java.util.regex.Pattern.quote(CurvesMain.START), -1).length - 1, "one curves section");
        for (String curve : List.of("clients", "locks", "held", "handoff", "longrun")) {
            assertTrue(Files.size(report.resolveSibling("tradeoffs-curve-" + curve + ".png")) > 1000, curve + " chart");
        }
        List<String> csv = Files.readAllLines(report.resolveSibling("tradeoffs-curves.csv"));
        assertTrue(csv.get(0).startsWith("section,variant,"), csv.get(0));
        assertTrue(csv.size() > results.points.size(), "a row per figure");

        List<String> broken = new ArrayList<>();
        for (CurveResults.Curve curve : CurveResults.Curve.values()) {
            List<CurveResults.Point> points = results.of(curve);
            if (points.isEmpty()) {
                broken.add(curve + ": no point");
            }
            for (CurveResults.Point p : points) {
                boolean figures = curve == CurveResults.Curve.HANDOFF ? p.handoff.size() > 0
                        : p.metrics.values().stream().anyMatch(v -> !Double.isNaN(v));
                if (p.error != null || p.cutShort || !figures) {
                    broken.add(curve + " " + p.variant + " " + p.kind + " x=" + p.x + ": " + p.error);
                }
            }
        }
        assertTrue(broken.isEmpty(), "points without figures:\n" + String.join("\n", broken));

        // every backend, the JDBC one included, is on every curve beside its anchor (the long run: providers only)
        List<String> missing = new ArrayList<>();
        for (CurveResults.Curve curve : CurveResults.Curve.values()) {
            for (Variant.Backend backend : Variant.Backend.values()) {
                for (Variant.Role role : List.of(Variant.Role.PROVIDER, Variant.Role.ANCHOR)) {
                    boolean expected = role == Variant.Role.PROVIDER || curve != CurveResults.Curve.LONG_RUN;
                    if (expected && results.of(curve).stream().noneMatch(p -> p.backend == backend && p.role == role)) {
                        missing.add(curve + " " + backend + " " + role);
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "no point for: " + missing);

        // a second run's section replaces the first, and the trade-off run carries it over
        String again = CurvesMain.splice(md, CurvesMain.START + "\nnew\n" + CurvesMain.END + "\n");
        assertEquals("# before\n\n" + CurvesMain.START + "\nnew\n" + CurvesMain.END + "\n", again);
        assertTrue(CurvesMain.carriedSection(report).contains("## Curves: how the cost grows"));
    }
}
