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

/**
 * Runs the curves with smoke-sized counts (the real servers, every curve, a handful of operations each) and checks
 * that the section, one chart per curve and the raw results are written, with figures for every point, and that
 * a later section replaces it in place.
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

        // a second run's section replaces the first, and the trade-off run carries it over
        String again = CurvesMain.splice(md, CurvesMain.START + "\nnew\n" + CurvesMain.END + "\n");
        assertEquals("# before\n\n" + CurvesMain.START + "\nnew\n" + CurvesMain.END + "\n", again);
        assertTrue(CurvesMain.carriedSection(report).contains("## Curves: how the cost grows"));
    }
}
