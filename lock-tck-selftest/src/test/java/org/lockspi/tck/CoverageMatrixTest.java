package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.coverage.CoverageMatrix;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.KindColumn;
import org.lockspi.tck.coverage.QueueShape;

/**
 * The kit's coverage matrix is whole and docs/spec.md shows it as it is: every contract test says which lock kinds
 * and queue shapes it tests ({@link Covers}), every other cell is tested by a rule that really tests it or is not
 * applicable with a reason, and the spec's copy of the matrix is the one the annotations give. A rule added without
 * its row, or a spec edited by hand, fails here. With {@code -Dlockspi.coverage.write=true} the test writes the
 * matrix into the spec instead of failing on a stale copy.
 */
class CoverageMatrixTest {
    /** Where the generated matrix starts in docs/spec.md. */
    static final String BEGIN = "<!-- coverage matrix: generated from the kit's @Covers, @CoveredBy and @Inapplicable "
            + "by CoverageMatrix; CoverageMatrixTest checks this copy (-Dlockspi.coverage.write=true rewrites it) -->";
    /** Where it ends. */
    static final String END = "<!-- end of the coverage matrix -->";

    @Test
    void everyCellIsTestedOrExplained() throws IOException, URISyntaxException {
        List<Method> tests = KitContracts.tests();
        assertTrue(tests.size() > 100, "the kit's contract tests were not found: " + tests.size());
        CoverageMatrix matrix = CoverageMatrix.of(tests);
        assertEquals(tests.size(), matrix.rows().size(), "one row per contract test");
        assertEquals(List.of(), matrix.problems(), "cells of the coverage matrix neither tested nor explained, or "
                + "explained wrongly (" + matrix.summary() + ")");
    }

    @Test
    void theMatrixCountsEveryKindAndShape() throws IOException, URISyntaxException {
        CoverageMatrix matrix = CoverageMatrix.of(KitContracts.tests());
        for (KindColumn kind : KindColumn.values()) {
            assertTrue(matrix.rows().stream().anyMatch(r -> r.kinds().get(kind).state()
                    == CoverageMatrix.State.TESTED), "no rule tests " + kind);
        }
        for (QueueShape shape : QueueShape.values()) {
            assertTrue(matrix.rows().stream().anyMatch(r -> r.shapes().get(shape).state()
                    == CoverageMatrix.State.TESTED), "no rule tests the queue shape " + shape);
        }
    }

    @Test
    void theSpecShowsTheMatrixAsTheAnnotationsGiveIt() throws IOException, URISyntaxException {
        Path spec = Path.of("..", "docs", "spec.md");
        String text = Files.readString(spec, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, spec.toAbsolutePath() + " has no generated coverage matrix between "
                + BEGIN + " and " + END);
        String generated = CoverageMatrix.of(KitContracts.tests()).renderMarkdown();
        String copy = text.substring(begin + BEGIN.length(), end).strip() + "\n";
        if (!generated.equals(copy) && Boolean.getBoolean("lockspi.coverage.write")) {
            Files.writeString(spec, text.substring(0, begin + BEGIN.length()) + "\n\n" + generated + "\n"
                    + text.substring(end), StandardCharsets.UTF_8);
            return;
        }
        assertEquals(generated, copy, "docs/spec.md's coverage matrix is not the one the kit's annotations give; "
                + "run this test with -Dlockspi.coverage.write=true to write it");
    }
}
