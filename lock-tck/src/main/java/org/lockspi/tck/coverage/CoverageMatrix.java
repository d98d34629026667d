package org.lockspi.tck.coverage;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The coverage matrix of a set of contract tests: for each rule (one test), a cell per {@link KindColumn} and per
 * {@link QueueShape}, read from its {@link Covers}, {@link CoveredBy} and {@link Inapplicable} annotations and those
 * of its contract interface. A cell is tested, tested by another rule (which must test it itself), not applicable
 * with a reason, or unexplained, which {@link #problems()} reports with every other inconsistency. Rendered as text
 * for the conformance report and as Markdown for docs/spec.md, whose copy the kit's self-test compares with it.
 */
public final class CoverageMatrix {
    private static final Pattern RULE = Pattern.compile("^§(\\d+)\\.(\\d+)(?=\\s|:|$)");

    /** What a cell says. */
    public enum State { TESTED, ELSEWHERE, NOT_APPLICABLE, UNEXPLAINED }

    /** One cell: its state, and the rule testing it ({@code ELSEWHERE}) or the reason ({@code NOT_APPLICABLE}). */
    public record Cell(State state, String note) {
    }

    /** One rule's row. */
    public record Row(String rule, String test, Map<KindColumn, Cell> kinds, Map<QueueShape, Cell> shapes) {
    }

    private final List<Row> rows;
    private final List<String> problems;
    /** Each reason once, in the order of first use: its letter is its index. */
    private final List<String> reasons;

    private CoverageMatrix(List<Row> rows, List<String> problems) {
        this.rows = List.copyOf(rows);
        List<String> found = new ArrayList<>();
        for (Row row : rows) {
            for (Cell cell : cells(row)) {
                if (cell.state() == State.NOT_APPLICABLE && !found.contains(cell.note())) {
                    found.add(cell.note());
                }
            }
        }
        this.reasons = List.copyOf(found);
        List<String> all = new ArrayList<>(problems);
        for (Row row : rows) {
            check(row, all);
        }
        this.problems = List.copyOf(all);
    }

    /**
     * @param tests contract test methods, each with a {@link DisplayName} that starts with its rule
     * @return their matrix, sorted by rule
     */
    public static CoverageMatrix of(Collection<Method> tests) {
        List<String> problems = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        for (Method test : tests) {
            String name = AnnotationSupport.findAnnotation(test, DisplayName.class).map(DisplayName::value)
                    .orElse(test.getName());
            Matcher m = RULE.matcher(name);
            if (!m.find()) {
                problems.add(id(test) + ": its name starts with no rule: " + name);
                continue;
            }
            Optional<Covers> covers = AnnotationSupport.findAnnotation(test, Covers.class);
            if (covers.isEmpty()) {
                problems.add(m.group() + " (" + id(test) + "): no @Covers");
            }
            List<KindColumn> coveredKinds = covers.map(c -> Arrays.asList(c.kinds())).orElse(List.of());
            List<QueueShape> coveredShapes = covers.map(c -> Arrays.asList(c.shapes())).orElse(List.of());
            rows.add(new Row(m.group(), name,
                    cells(test, KindColumn.class, coveredKinds, CoveredBy::kinds, Inapplicable::kinds, problems),
                    cells(test, QueueShape.class, coveredShapes, CoveredBy::shapes, Inapplicable::shapes, problems)));
        }
        rows.sort(Comparator.comparing(Row::rule, CoverageMatrix::compareRules));
        return new CoverageMatrix(rows, problems);
    }

    private static <E extends Enum<E>> Map<E, Cell> cells(Method test, Class<E> type, List<E> covered,
                                                          Function<CoveredBy, E[]> byOf,
                                                          Function<Inapplicable, E[]> naOf, List<String> problems) {
        List<CoveredBy> by = AnnotationSupport.findRepeatableAnnotations(test, CoveredBy.class);
        List<Inapplicable> own = AnnotationSupport.findRepeatableAnnotations(test, Inapplicable.class);
        List<Inapplicable> group = AnnotationSupport.findRepeatableAnnotations(test.getDeclaringClass(),
                Inapplicable.class);
        Map<E, Cell> cells = new EnumMap<>(type);
        for (E column : type.getEnumConstants()) {
            List<String> elsewhere = by.stream().filter(b -> Arrays.asList(byOf.apply(b)).contains(column))
                    .map(CoveredBy::value).collect(Collectors.toList());
            List<String> na = reasons(own, naOf, column);
            List<String> groupNa = reasons(group, naOf, column);
            int explained = elsewhere.size() + na.size();
            if (covered.contains(column) && explained > 0 || explained > 1 || groupNa.size() > 1) {
                problems.add(id(test) + ": " + column + " is both tested and explained, or explained twice");
            }
            if (covered.contains(column)) {
                cells.put(column, new Cell(State.TESTED, null));
            } else if (!elsewhere.isEmpty()) {
                cells.put(column, new Cell(State.ELSEWHERE, elsewhere.get(0)));
            } else if (!na.isEmpty()) {
                cells.put(column, new Cell(State.NOT_APPLICABLE, na.get(0)));
            } else if (!groupNa.isEmpty()) {
                cells.put(column, new Cell(State.NOT_APPLICABLE, groupNa.get(0)));
            } else {
                cells.put(column, new Cell(State.UNEXPLAINED, null));
            }
        }
        return cells;
    }

    private static <E> List<String> reasons(List<Inapplicable> annotations, Function<Inapplicable, E[]> of,
                                            E column) {
        return annotations.stream().filter(a -> Arrays.asList(of.apply(a)).contains(column))
                .map(a -> a.reason().strip()).collect(Collectors.toList());
    }

    private void check(Row row, List<String> problems) {
        Map<Object, Cell> all = new LinkedHashMap<>(row.kinds());
        all.putAll(row.shapes());
        all.forEach((column, cell) -> {
            switch (cell.state()) {
                case UNEXPLAINED:
                    problems.add(row.rule() + " " + column + ": neither tested nor explained");
                    break;
                case NOT_APPLICABLE:
                    if (cell.note().isEmpty()) {
                        problems.add(row.rule() + " " + column + ": not applicable without a reason");
                    }
                    break;
                case ELSEWHERE:
                    Cell there = rows.stream().filter(r -> r.rule().equals(cell.note())).findFirst()
                            .map(r -> column instanceof KindColumn ? r.kinds().get(column)
                                    : r.shapes().get((QueueShape) column)).orElse(null);
                    if (there == null || there.state() != State.TESTED) {
                        problems.add(row.rule() + " " + column + ": said to be tested by " + cell.note()
                                + ", which " + (there == null ? "is no rule here" : "does not test it"));
                    }
                    break;
                default:
                    break;
            }
        });
    }

    /** @return the rows, sorted by rule */
    public List<Row> rows() {
        return rows;
    }

    /** @return every cell neither tested nor explained, and every inconsistency; empty when the matrix is whole */
    public List<String> problems() {
        return problems;
    }

    /** @return one line of totals: rules by kinds and by queue shapes, tested, tested elsewhere, not applicable */
    public String summary() {
        return rows.size() + " rules x " + KindColumn.values().length + " kinds: " + totals(Row::kinds) + "; x "
                + QueueShape.values().length + " queue shapes: " + totals(Row::shapes);
    }

    private String totals(Function<Row, Map<?, Cell>> part) {
        Map<State, Long> counts = rows.stream().flatMap(r -> part.apply(r).values().stream())
                .collect(Collectors.groupingBy(Cell::state, () -> new EnumMap<>(State.class), Collectors.counting()));
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        return total + " cells, " + counts.getOrDefault(State.TESTED, 0L) + " tested, "
                + counts.getOrDefault(State.ELSEWHERE, 0L) + " tested by another rule, "
                + counts.getOrDefault(State.NOT_APPLICABLE, 0L) + " not applicable"
                + (counts.containsKey(State.UNEXPLAINED) ? ", " + counts.get(State.UNEXPLAINED) + " UNEXPLAINED" : "");
    }

    /** @return the matrix as the conformance report prints it: a line per rule, the reasons, the totals */
    public String renderText() {
        StringBuilder out = new StringBuilder();
        out.append("coverage by lock kind and queue shape (docs/spec.md): + tested, §n.m tested by that rule, -x not "
                + "applicable (reason x below)\n");
        out.append(String.format("  %-7s", "rule"));
        for (KindColumn kind : KindColumn.values()) {
            out.append(String.format("%-7s", kind.label()));
        }
        out.append("| ");
        for (QueueShape shape : QueueShape.values()) {
            out.append(String.format("%-7s", shape.label()));
        }
        out.append('\n');
        for (Row row : rows) {
            out.append(String.format("  %-7s", row.rule()));
            row.kinds().values().forEach(c -> out.append(String.format("%-7s", text(c))));
            out.append("| ");
            row.shapes().values().forEach(c -> out.append(String.format("%-7s", text(c))));
            out.append('\n');
        }
        for (int i = 0; i < reasons.size(); i++) {
            out.append("  ").append(letter(i)).append(": ").append(reasons.get(i)).append('\n');
        }
        return out.append("  matrix: ").append(summary()).toString().replaceAll(" +\n", "\n");
    }

    /** @return the matrix as a Markdown table, with its reasons as a list under it (docs/spec.md's copy) */
    public String renderMarkdown() {
        StringBuilder out = new StringBuilder("| Rule |");
        for (KindColumn kind : KindColumn.values()) {
            out.append(' ').append(kind.label()).append(" |");
        }
        for (QueueShape shape : QueueShape.values()) {
            out.append(' ').append(shape.label()).append(" |");
        }
        out.append("\n|---|").append("---|".repeat(KindColumn.values().length + QueueShape.values().length))
                .append('\n');
        for (Row row : rows) {
            out.append("| ").append(row.rule().substring(1)).append(" |");
            row.kinds().values().forEach(c -> out.append(' ').append(markdown(c)).append(" |"));
            row.shapes().values().forEach(c -> out.append(' ').append(markdown(c)).append(" |"));
            out.append('\n');
        }
        out.append('\n');
        for (int i = 0; i < reasons.size(); i++) {
            out.append("- *").append(letter(i)).append("*: ").append(reasons.get(i)).append('\n');
        }
        return out.append("\nTotals: ").append(summary()).append(".\n").toString();
    }

    private String text(Cell cell) {
        switch (cell.state()) {
            case TESTED:
                return "+";
            case ELSEWHERE:
                return cell.note();
            case NOT_APPLICABLE:
                return "-" + letter(reasons.indexOf(cell.note()));
            default:
                return "?";
        }
    }

    private String markdown(Cell cell) {
        switch (cell.state()) {
            case TESTED:
                return "✓";
            case ELSEWHERE:
                return "→" + cell.note().substring(1);
            case NOT_APPLICABLE:
                return "*" + letter(reasons.indexOf(cell.note())) + "*";
            default:
                return "**?**";
        }
    }

    /** @return a, b, ..., z, aa, ab, ...: the reason's mark */
    private static String letter(int index) {
        String mark = String.valueOf((char) ('a' + index % 26));
        return index < 26 ? mark : letter(index / 26 - 1) + mark;
    }

    private static List<Cell> cells(Row row) {
        List<Cell> all = new ArrayList<>(row.kinds().values());
        all.addAll(row.shapes().values());
        return all;
    }

    private static int compareRules(String a, String b) {
        Matcher x = RULE.matcher(a);
        Matcher y = RULE.matcher(b);
        if (!x.find() || !y.find()) {
            return a.compareTo(b);
        }
        int section = Integer.compare(Integer.parseInt(x.group(1)), Integer.parseInt(y.group(1)));
        return section != 0 ? section : Integer.compare(Integer.parseInt(x.group(2)), Integer.parseInt(y.group(2)));
    }

    private static String id(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName();
    }
}
