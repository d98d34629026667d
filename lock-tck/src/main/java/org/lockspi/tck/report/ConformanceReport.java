package org.lockspi.tck.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.lockspi.LockFeature;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.TckBackend;

/**
 * What one run of a TCK class verified, rule by rule, and its verdict. Rules are read from the tests' display
 * names ({@code "§13.3 mutex: ..."} is rule {@code §13.3} of section {@code §13}) and capabilities from
 * {@link TckBackend.Capability}, so new rules and capabilities need no change here.
 *
 * <p>Each test ends as one of: passed; failed; skipped (the provider does not declare the feature, or another
 * reason: an honest absence); <em>not verified</em> (skipped by {@link CapabilityMissing}: the provider declares
 * the feature but the backend cannot show it); or not run (not selected, e.g. by {@code -Dtest}). Only tests that
 * ran are judged, so a filtered run does not fail for rules it did not select.
 *
 * <p>The verdict is the last line of {@link #render()} and starts with {@link #VERDICT}: {@link #NOT_CONFORMANT},
 * {@link #PARTIAL} or {@link #CONFORMANT}. Thread-safe.
 */
public final class ConformanceReport {
    /** The prefix of every verdict line: {@value}. */
    public static final String VERDICT = "lockspi TCK: ";
    /** The prefix of the verdict of a run with a failed or an unverified (and not allowed) rule: {@value}. */
    public static final String NOT_CONFORMANT = VERDICT + "NOT CONFORMANT: ";
    /** The prefix of the verdict of a run that selected only some tests and found nothing wrong: {@value}. */
    public static final String PARTIAL = VERDICT + "PARTIAL RUN: ";
    /** The prefix of the verdict of a full run that found nothing wrong: {@value}. */
    public static final String CONFORMANT = VERDICT + "CONFORMANT: ";

    private static final Pattern RULE = Pattern.compile("^§(\\d+)(?:\\.(\\d+))?(?=\\s|:|$)");
    private static final Comparator<String> BY_RULE = Comparator.comparingInt((String r) -> number(r, 1))
            .thenComparingInt(r -> number(r, 2)).thenComparing(Comparator.naturalOrder());

    private enum Status { PASSED, FAILED, SKIPPED, NOT_VERIFIED }

    private static final class Outcome {
        final Status status;
        final String detail;
        final TckBackend.Capability missing;

        Outcome(Status status, String detail, TckBackend.Capability missing) {
            this.status = status;
            this.detail = detail;
            this.missing = missing;
        }
    }

    private final String testClass;
    private final Set<String> catalogue;
    private final Map<String, String> allowed;
    private final Map<String, Outcome> outcomes = new LinkedHashMap<>();
    private String provider = "(not started)";
    private String features = "";
    private String undeclared = "";
    private String backend = "(not started)";
    private EnumSet<TckBackend.Capability> capabilities;

    /**
     * @param testClass the TCK class's name
     * @param catalogue the display names of every test of the class, run or not
     * @param allowed   the rules allowed to go unverified, each with its reason ({@code unverifiedRulesAllowed()})
     * @throws IllegalArgumentException if an allowed rule is not a rule of the catalogue, or its reason is blank
     */
    public ConformanceReport(String testClass, Collection<String> catalogue, Map<String, String> allowed) {
        this.testClass = Objects.requireNonNull(testClass, "testClass");
        this.catalogue = new TreeSet<>(catalogue);
        Objects.requireNonNull(allowed, "unverifiedRulesAllowed() returned null");
        Set<String> rules = this.catalogue.stream().map(ConformanceReport::rule).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        TreeMap<String, String> checked = new TreeMap<>(BY_RULE);
        allowed.forEach((rule, reason) -> {
            if (rule == null || !rules.contains(rule)) {
                throw new IllegalArgumentException("unverifiedRulesAllowed() names '" + rule + "', which is not a "
                        + "rule of this kit; name rules as in the test names, e.g. \"§13.3\"");
            }
            if (reason == null || reason.isBlank()) {
                throw new IllegalArgumentException("unverifiedRulesAllowed() gives no reason for " + rule);
            }
            checked.put(rule, reason.strip());
        });
        this.allowed = checked;
    }

    /**
     * @param displayName a test's display name
     * @return its rule, such as {@code "§13.3"}, or {@code null} if the name does not start with one
     */
    public static String rule(String displayName) {
        Matcher m = RULE.matcher(displayName);
        return m.find() ? m.group() : null;
    }

    private static int number(String rule, int group) {
        Matcher m = RULE.matcher(rule);
        return m.find() && m.group(group) != null ? Integer.parseInt(m.group(group)) : Integer.MAX_VALUE;
    }

    /**
     * Records what the run is about, once the backend started.
     *
     * @param provider the provider under test
     * @param backend  the started backend
     */
    public synchronized void started(LockProvider provider, TckBackend backend) {
        this.provider = "'" + provider.name() + "' " + provider.version() + " (" + provider.getClass().getName() + ")";
        Set<LockFeature> given = provider.features(); // null is §1.2's to fail, not the report's
        EnumSet<LockFeature> declared = given == null || given.isEmpty() ? EnumSet.noneOf(LockFeature.class)
                : EnumSet.copyOf(given);
        this.features = names(declared);
        this.undeclared = names(EnumSet.complementOf(declared));
        this.backend = backend.description();
        this.capabilities = backend.capabilities().isEmpty() ? EnumSet.noneOf(TckBackend.Capability.class)
                : EnumSet.copyOf(backend.capabilities());
    }

    /** @param test a test's display name; it passed */
    public synchronized void passed(String test) {
        outcomes.put(test, new Outcome(Status.PASSED, null, null));
    }

    /**
     * @param test  a test's display name
     * @param cause why it failed
     */
    public synchronized void failed(String test, Throwable cause) {
        String text = String.valueOf(cause.getMessage());
        String message = cause.getClass().getName() + ": " + (text.startsWith(test + ": ")
                ? text.substring(test.length() + 2) : text);
        int newline = message.indexOf('\n');
        outcomes.put(test, new Outcome(Status.FAILED, newline < 0 ? message : message.substring(0, newline) + " ...",
                null));
    }

    /**
     * @param test  a test's display name
     * @param cause why it was skipped: a {@link CapabilityMissing} makes it not verified
     */
    public synchronized void skipped(String test, Throwable cause) {
        if (cause instanceof CapabilityMissing) {
            outcomes.put(test, new Outcome(Status.NOT_VERIFIED, cause.getMessage(),
                    ((CapabilityMissing) cause).capability()));
        } else {
            outcomes.put(test, new Outcome(Status.SKIPPED, cause == null ? "disabled" : cause.getMessage(), null));
        }
    }

    /** @return the rules not verified for a missing capability and not allowed, sorted; empty when none */
    public synchronized List<String> unverifiedNotAllowed() {
        return rulesWith(Status.NOT_VERIFIED).stream().filter(r -> !allowed.containsKey(r))
                .collect(Collectors.toList());
    }

    /**
     * @return the verdict line about unverified rules ({@link #NOT_CONFORMANT} ...), if some were not verified and
     *         not allowed: the line the run fails with
     */
    public synchronized Optional<String> unverifiedVerdict() {
        List<String> rules = unverifiedNotAllowed();
        if (rules.isEmpty()) {
            return Optional.empty();
        }
        Set<TckBackend.Capability> lacking = EnumSet.noneOf(TckBackend.Capability.class);
        outcomes.forEach((test, o) -> {
            if (o.status == Status.NOT_VERIFIED && rules.contains(rule(test))) {
                lacking.add(o.missing);
            }
        });
        return Optional.of(NOT_CONFORMANT + rules.size() + (rules.size() == 1 ? " rule" : " rules")
                + " required by the declared features " + (rules.size() == 1 ? "was" : "were") + " not verified: "
                + String.join(", ", rules) + " (backend lacks " + names(lacking) + ")");
    }

    /** @return the report: header, every test by section, totals, and the verdict as the last line */
    public synchronized String render() {
        StringBuilder out = new StringBuilder();
        out.append("==== lockspi TCK conformance report: ").append(testClass).append(" ====\n");
        header(out, "provider", provider);
        header(out, "features", features);
        header(out, "not declared", undeclared + (undeclared.equals("none") ? "" : "  (their rules are skipped; §9 "
                + "checks they are refused)"));
        header(out, "backend", backend);
        header(out, "capabilities", capabilities == null ? "(unknown)" : names(capabilities));
        header(out, "lacks", capabilities == null ? "(unknown)" : capabilities.containsAll(EnumSet.allOf(
                TckBackend.Capability.class)) ? "none" : names(EnumSet.complementOf(capabilities))
                + "  (rules that need them are NOT VERIFIED; checks that need them inside other tests are left out)");
        header(out, "allowed unverified", allowed.isEmpty() ? "none (unverifiedRulesAllowed())"
                : allowed.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                        .collect(Collectors.joining("; ")));
        Map<String, List<String>> sections = new TreeMap<>(BY_RULE);
        for (String test : outcomes.keySet()) {
            String rule = rule(test);
            String section = rule == null ? "other" : rule.replaceFirst("\\..*", "");
            sections.computeIfAbsent(section, s -> new ArrayList<>()).add(test);
        }
        sections.forEach((section, tests) -> {
            out.append(section).append('\n');
            tests.sort(Comparator.comparing((String t) -> rule(t) == null ? "" : rule(t), BY_RULE)
                    .thenComparing(Comparator.naturalOrder()));
            for (String test : tests) {
                Outcome o = outcomes.get(test);
                String status = o.status == Status.NOT_VERIFIED && allowed.containsKey(rule(test))
                        ? "NOT VERIFIED, ALLOWED" : o.status.name().replace('_', ' ');
                out.append(String.format("  %-21s %s", status, test));
                if (o.detail != null) {
                    out.append("  -- ").append(o.detail);
                }
                out.append('\n');
            }
        });
        List<String> notRun = catalogue.stream().filter(t -> outcomes.keySet().stream()
                .noneMatch(o -> o.equals(t) || o.startsWith(t + " "))).collect(Collectors.toList());
        if (!notRun.isEmpty()) {
            out.append("not run (not selected): ").append(String.join(", ", rules(notRun))).append('\n');
        }
        out.append(String.format("totals: %d tests ran: %d passed, %d failed, %d skipped, %d not verified; %d not "
                + "run%n", outcomes.size(), count(Status.PASSED), count(Status.FAILED), count(Status.SKIPPED),
                count(Status.NOT_VERIFIED), notRun.size()));
        List<String> stale = allowed.keySet().stream().filter(r -> ranFully(r, Status.PASSED))
                .collect(Collectors.toList());
        if (!stale.isEmpty()) {
            out.append(VERDICT).append("NOTE: unverifiedRulesAllowed() names rules this run verified; remove them: ")
                    .append(String.join(", ", stale)).append('\n');
        }
        out.append(String.join("\n", verdicts(notRun.size())));
        return out.toString();
    }

    private List<String> verdicts(int notRun) {
        List<String> lines = new ArrayList<>();
        List<String> failed = rulesWith(Status.FAILED);
        if (capabilities == null) {
            lines.add(NOT_CONFORMANT + "the backend did not start; no rule was verified");
        }
        unverifiedVerdict().ifPresent(lines::add);
        if (!failed.isEmpty()) {
            lines.add(NOT_CONFORMANT + failed.size() + (failed.size() == 1 ? " rule" : " rules") + " failed: "
                    + String.join(", ", failed));
        }
        if (!lines.isEmpty()) {
            return lines;
        }
        List<String> allowedUnverified = rulesWith(Status.NOT_VERIFIED);
        String tail = count(Status.PASSED) + " tests passed, " + count(Status.SKIPPED) + " skipped (not applicable "
                + "to the declared features), " + allowedUnverified.size() + " rules not verified as "
                + "unverifiedRulesAllowed() allows" + (allowedUnverified.isEmpty() ? ""
                        : ": " + String.join(", ", allowedUnverified));
        lines.add(notRun > 0 ? PARTIAL + (catalogue.size() - notRun) + " of " + catalogue.size() + " tests selected; "
                + tail + "; conformance is judged on a run of every test" : CONFORMANT + tail);
        return lines;
    }

    private boolean ranFully(String rule, Status status) {
        List<Outcome> of = outcomes.entrySet().stream().filter(e -> rule.equals(rule(e.getKey())))
                .map(Map.Entry::getValue).collect(Collectors.toList());
        return !of.isEmpty() && of.stream().allMatch(o -> o.status == status);
    }

    private List<String> rulesWith(Status status) {
        return rules(outcomes.entrySet().stream().filter(e -> e.getValue().status == status).map(Map.Entry::getKey)
                .collect(Collectors.toList()));
    }

    private static List<String> rules(Collection<String> tests) {
        return tests.stream().map(t -> rule(t) == null ? t : rule(t)).distinct().sorted(BY_RULE)
                .collect(Collectors.toList());
    }

    private long count(Status status) {
        return outcomes.values().stream().filter(o -> o.status == status).count();
    }

    private static void header(StringBuilder out, String key, String value) {
        out.append(String.format("  %-19s %s%n", key, value));
    }

    private static String names(Set<? extends Enum<?>> values) {
        return values.isEmpty() ? "none" : values.stream().map(Enum::name).collect(Collectors.joining(", "));
    }
}
