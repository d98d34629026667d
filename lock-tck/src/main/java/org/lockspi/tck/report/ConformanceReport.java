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
 * What one run of a TCK class verified, rule by rule, and its verdict. The rules are the kit's own (its
 * {@code catalogue}, read from the kit's contract interfaces, never from the test class), so a rule that did not
 * run, or whose test the class replaced, is never counted as passed. Rules are read from the tests' display names
 * ({@code "§13.3 mutex: ..."} is rule {@code §13.3} of section {@code §13}).
 *
 * <p>Each test ends as one of: passed; failed; skipped (the rule does not apply to what the provider declares:
 * {@link NotApplicable}); or <em>not verified</em>, for one of these reasons: the backend lacks a capability
 * ({@link CapabilityMissing}); the test was aborted or disabled otherwise (by a backend's assumption, say); the
 * test class overrides the kit's test; or the test did not run. Rules not verified for a missing capability or an
 * abort may be allowed by name, each with a reason ({@code unverifiedRulesAllowed()}); the others never.
 *
 * <p>The verdict is the last line of {@link #render()} and starts with {@link #VERDICT}: {@link #NOT_CONFORMANT},
 * {@link #PARTIAL} or {@link #CONFORMANT}. A run is conformant only if the provider declares the {@link Profile#CORE
 * minimum profile}, every rule of the catalogue ran and passed or was skipped as not applicable (or was allowed
 * unverified by name), and the {@link #FLOOR} rules passed. A <em>strict</em> run (the conformance run of
 * {@code org.lockspi.tck.run}) counts a test that did not run as not verified; otherwise (a build tool's selection,
 * {@code -Dtest=...}) it makes the run {@link #PARTIAL}, which is never conformant. Thread-safe.
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
    /**
     * The rules every conformant run passes, whatever it allows: exclusion, reentrancy, increasing fencing
     * tokens, a valid lease while held. A run that passed none of them verified nothing.
     */
    public static final List<String> FLOOR = List.of("§3.1", "§4.1", "§13.1", "§17.1");

    private static final Pattern RULE = Pattern.compile("^§(\\d+)(?:\\.(\\d+))?(?=\\s|:|$)");
    private static final Comparator<String> BY_RULE = Comparator.comparingInt((String r) -> number(r, 1))
            .thenComparingInt(r -> number(r, 2)).thenComparing(Comparator.naturalOrder());

    /** How a test ended, as the report counts it. */
    public enum Status { PASSED, FAILED, SKIPPED, NOT_VERIFIED }

    /** Why a test is not verified. */
    enum Why {
        CAPABILITY("backend lacks "), ABORTED("aborted"), DISABLED("disabled"), OVERRIDDEN("overridden"),
        NOT_RUN("did not run");

        final String label;

        Why(String label) {
            this.label = label;
        }

        boolean allowable() {
            return this == CAPABILITY || this == ABORTED || this == DISABLED;
        }
    }

    /** One test's outcome. */
    static final class Outcome {
        final Status status;
        final String detail;
        final Why why;
        final TckBackend.Capability missing;

        Outcome(Status status, String detail, Why why, TckBackend.Capability missing) {
            this.status = status;
            this.detail = detail;
            this.why = why;
            this.missing = missing;
        }
    }

    private final String testClass;
    private final Set<String> catalogue;
    private final Map<String, String> allowed;
    private final Map<String, String> overridden;
    private final Map<String, String> diagnoses;
    private final boolean strict;
    private final Map<String, Outcome> outcomes = new LinkedHashMap<>();
    private String provider = "(not started)";
    private EnumSet<LockFeature> features;
    private String backend = "(not started)";
    private EnumSet<TckBackend.Capability> capabilities;
    private String coverage;

    /**
     * @param testClass  the TCK class's name
     * @param catalogue  the display names of the kit's tests this class must run: the kit's own list
     * @param allowed    the rules allowed to go unverified, each with its reason ({@code unverifiedRulesAllowed()})
     * @param overridden display names of the kit's tests the class replaced, each with the replacing method
     * @param diagnoses  display names of the kit's tests with what to look at when each fails
     * @param strict     whether a test that did not run is not verified (a conformance run) rather than a
     *                   selection that makes the run partial
     * @throws IllegalArgumentException if an allowed rule is not a rule of the catalogue, or its reason is blank
     */
    public ConformanceReport(String testClass, Collection<String> catalogue, Map<String, String> allowed,
                             Map<String, String> overridden, Map<String, String> diagnoses, boolean strict) {
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
        this.overridden = Map.copyOf(overridden);
        this.diagnoses = Map.copyOf(diagnoses);
        this.strict = strict;
        this.overridden.forEach((test, by) -> outcomes.put(test, new Outcome(Status.NOT_VERIFIED,
                "the test class replaces the kit's test with " + by, Why.OVERRIDDEN, null)));
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
        this.features = given == null || given.isEmpty() ? EnumSet.noneOf(LockFeature.class) : EnumSet.copyOf(given);
        this.backend = backend.description();
        this.capabilities = backend.capabilities().isEmpty() ? EnumSet.noneOf(TckBackend.Capability.class)
                : EnumSet.copyOf(backend.capabilities());
    }

    /**
     * Records the coverage matrix of the kit's rules this class runs, which {@link #render()} prints before the
     * totals.
     *
     * @param matrix the matrix as text ({@code CoverageMatrix.renderText()})
     */
    public synchronized void coverage(String matrix) {
        this.coverage = matrix;
    }

    /** @param test a test's display name; it passed */
    public synchronized void passed(String test) {
        record(test, new Outcome(Status.PASSED, null, null, null));
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
        record(test, new Outcome(Status.FAILED, newline < 0 ? message : message.substring(0, newline) + " ...",
                null, null));
    }

    /**
     * @param test  a test's display name
     * @param cause why it was aborted: {@link NotApplicable} skips it, {@link CapabilityMissing} leaves it not
     *              verified for the capability, anything else leaves it not verified as aborted
     */
    public synchronized void skipped(String test, Throwable cause) {
        if (cause instanceof NotApplicable) {
            record(test, new Outcome(Status.SKIPPED, cause.getMessage(), null, null));
        } else if (cause instanceof CapabilityMissing) {
            record(test, new Outcome(Status.NOT_VERIFIED, cause.getMessage(), Why.CAPABILITY,
                    ((CapabilityMissing) cause).capability()));
        } else {
            record(test, new Outcome(Status.NOT_VERIFIED, "aborted: " + (cause == null ? "(no reason)"
                    : cause.getClass().getSimpleName() + ": " + cause.getMessage()), Why.ABORTED, null));
        }
    }

    /**
     * @param test   a test's display name
     * @param reason why it was disabled
     */
    public synchronized void disabled(String test, String reason) {
        record(test, new Outcome(Status.NOT_VERIFIED, "disabled: " + reason, Why.DISABLED, null));
    }

    private void record(String test, Outcome outcome) {
        if (!overridden.containsKey(test)) { // a replaced test's own outcome says nothing of the kit's rule
            outcomes.put(test, outcome);
        }
    }

    /** @return the display names of the catalogue's tests that did not run */
    private List<String> notRun() {
        return catalogue.stream().filter(t -> outcomes.keySet().stream()
                .noneMatch(o -> o.equals(t) || o.startsWith(t + " "))).collect(Collectors.toList());
    }

    /** @return every outcome, with the tests that did not run as not verified when the run is strict */
    private Map<String, Outcome> judged() {
        Map<String, Outcome> all = new LinkedHashMap<>(outcomes);
        if (strict) {
            for (String test : notRun()) {
                all.put(test, new Outcome(Status.NOT_VERIFIED, "the kit's test did not run", Why.NOT_RUN, null));
            }
        }
        return all;
    }

    /** @return the profile the provider declares, if the run started */
    public synchronized Optional<Profile> profile() {
        return features == null ? Optional.empty() : Profile.highestDeclared(features);
    }

    /** @return the verdict's kind: the first word after {@link #VERDICT} */
    public synchronized String verdict() {
        List<String> lines = verdicts();
        String last = lines.get(lines.size() - 1);
        return last.startsWith(CONFORMANT) ? "CONFORMANT" : last.startsWith(PARTIAL) ? "PARTIAL RUN"
                : "NOT CONFORMANT";
    }

    /**
     * @return the verdict lines that fail the class after its last test (everything that makes the run not
     *         conformant except failed tests, which fail by themselves); empty if none
     */
    public synchronized List<String> classFailures() {
        return verdicts().stream().filter(l -> l.startsWith(NOT_CONFORMANT) && !l.contains(" failed: "))
                .collect(Collectors.toList());
    }

    /** @return the verdict lines: one per reason the run is not conformant, or one saying it is */
    public synchronized List<String> verdicts() {
        List<String> lines = new ArrayList<>();
        Map<String, Outcome> judged = judged();
        if (capabilities == null) {
            lines.add(NOT_CONFORMANT + "the backend did not start; no rule was verified");
            return lines;
        }
        Set<LockFeature> missing = Profile.missingForCore(features);
        if (!missing.isEmpty()) {
            lines.add(NOT_CONFORMANT + "the provider does not declare the minimum profile CORE "
                    + names(Profile.CORE.features()) + ": it leaves out " + names(missing));
        }
        List<String> unverified = rules(judged.entrySet().stream().filter(e -> e.getValue().status
                == Status.NOT_VERIFIED && !(e.getValue().why.allowable() && allowed.containsKey(rule(e.getKey()))))
                .map(Map.Entry::getKey).collect(Collectors.toList()));
        if (!unverified.isEmpty()) {
            lines.add(NOT_CONFORMANT + unverified.size() + (unverified.size() == 1 ? " rule" : " rules")
                    + " required by the declared features " + (unverified.size() == 1 ? "was" : "were")
                    + " not verified: " + String.join(", ", unverified) + " (" + reasons(judged, unverified) + ")");
        }
        List<String> failed = rules(judged, o -> o.status == Status.FAILED);
        if (!failed.isEmpty()) {
            lines.add(NOT_CONFORMANT + failed.size() + (failed.size() == 1 ? " rule" : " rules") + " failed: "
                    + String.join(", ", failed));
        }
        Set<String> ran = judged.keySet().stream().map(ConformanceReport::rule).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        List<String> floor = FLOOR.stream().filter(r -> catalogue.stream().anyMatch(t -> r.equals(rule(t))))
                .filter(r -> ran.contains(r) && !passed(judged, r) && !failed.contains(r))
                .collect(Collectors.toList());
        if (!floor.isEmpty() && missing.isEmpty()) {
            lines.add(NOT_CONFORMANT + "rules every conformant provider passes did not pass: "
                    + String.join(", ", floor));
        }
        if (!lines.isEmpty()) {
            return lines;
        }
        List<String> allowedUnverified = rules(judged, o -> o.status == Status.NOT_VERIFIED);
        String tail = "profile " + profile().map(Enum::name).orElse("none") + "; " + count(judged, Status.PASSED)
                + " tests passed, " + count(judged, Status.SKIPPED) + " skipped (not applicable to the declared "
                + "features), " + allowedUnverified.size() + " rules not verified as unverifiedRulesAllowed() "
                + "allows" + (allowedUnverified.isEmpty() ? "" : ": " + String.join(", ", allowedUnverified));
        int notRun = notRun().size();
        lines.add(notRun > 0 ? PARTIAL + (catalogue.size() - notRun) + " of " + catalogue.size() + " tests "
                + "selected; " + tail + "; conformance is judged on a run of every test" : CONFORMANT + tail);
        return lines;
    }

    private static boolean passed(Map<String, Outcome> judged, String rule) {
        List<Outcome> of = judged.entrySet().stream().filter(e -> rule.equals(rule(e.getKey())))
                .map(Map.Entry::getValue).collect(Collectors.toList());
        return !of.isEmpty() && of.stream().allMatch(o -> o.status == Status.PASSED);
    }

    private static String reasons(Map<String, Outcome> judged, List<String> rules) {
        Set<TckBackend.Capability> lacking = EnumSet.noneOf(TckBackend.Capability.class);
        Map<Why, Set<String>> other = new TreeMap<>();
        judged.forEach((test, o) -> {
            if (o.status == Status.NOT_VERIFIED && rules.contains(rule(test))) {
                if (o.why == Why.CAPABILITY) {
                    lacking.add(o.missing);
                } else {
                    other.computeIfAbsent(o.why, w -> new TreeSet<>(BY_RULE)).add(rule(test));
                }
            }
        });
        List<String> parts = new ArrayList<>();
        if (!lacking.isEmpty()) {
            parts.add("backend lacks " + names(lacking));
        }
        other.forEach((why, which) -> parts.add(why.label + ": " + String.join(", ", which)));
        return String.join("; ", parts);
    }

    /** @return the report: header, every test by section, totals, and the verdict as the last line */
    public synchronized String render() {
        Map<String, Outcome> judged = judged();
        StringBuilder out = new StringBuilder();
        out.append("==== lockspi TCK conformance report: ").append(testClass).append(" ====\n");
        header(out, "provider", provider);
        header(out, "features", features == null ? "(unknown)" : names(features));
        header(out, "profile", features == null ? "(unknown)" : profile().map(p -> p.name() + " "
                + names(p.features())).orElse("none: the minimum, CORE, is " + names(Profile.CORE.features())));
        String undeclared = features == null ? "(unknown)" : names(EnumSet.complementOf(features));
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
        for (String test : judged.keySet()) {
            String rule = rule(test);
            String section = rule == null ? "other" : rule.replaceFirst("\\..*", "");
            sections.computeIfAbsent(section, s -> new ArrayList<>()).add(test);
        }
        sections.forEach((section, tests) -> {
            out.append(section).append('\n');
            tests.sort(Comparator.comparing((String t) -> rule(t) == null ? "" : rule(t), BY_RULE)
                    .thenComparing(Comparator.naturalOrder()));
            for (String test : tests) {
                Outcome o = judged.get(test);
                out.append(String.format("  %-21s %s", statusLabel(test, o), test));
                if (o.detail != null) {
                    out.append("  -- ").append(o.detail);
                }
                out.append('\n');
                String diagnosis = o.status == Status.FAILED ? diagnosis(test) : null;
                if (diagnosis != null) {
                    out.append("  ").append(" ".repeat(21)).append(" what to look at: ").append(diagnosis)
                            .append('\n');
                }
            }
        });
        List<String> notRun = notRun();
        if (!notRun.isEmpty() && !strict) {
            out.append("not run (not selected): ").append(String.join(", ", rules(notRun))).append('\n');
        }
        if (coverage != null) {
            out.append(coverage).append('\n');
        }
        out.append(String.format("totals: %d tests ran: %d passed, %d failed, %d skipped, %d not verified; %d not "
                + "run%n", outcomes.size(), count(outcomes, Status.PASSED), count(outcomes, Status.FAILED),
                count(outcomes, Status.SKIPPED), count(outcomes, Status.NOT_VERIFIED), notRun.size()));
        List<String> stale = allowed.keySet().stream().filter(r -> passed(judged, r)).collect(Collectors.toList());
        if (!stale.isEmpty()) {
            out.append(VERDICT).append("NOTE: unverifiedRulesAllowed() names rules this run verified; remove them: ")
                    .append(String.join(", ", stale)).append('\n');
        }
        out.append(String.join("\n", verdicts()));
        return out.toString();
    }

    /** @return the report as JSON, for tools: the same facts as {@link #render()} */
    public synchronized String toJson() {
        Map<String, Outcome> judged = judged();
        List<ReportJson.Test> tests = new ArrayList<>();
        judged.forEach((test, o) -> tests.add(new ReportJson.Test(test, rule(test), statusLabel(test, o),
                o.detail, o.status == Status.FAILED ? diagnosis(test) : null)));
        return ReportJson.render(testClass, provider, features == null ? null : names(features).split(", "),
                profile().map(Enum::name).orElse(null), backend, capabilities == null ? null
                        : names(capabilities).split(", "), allowed, verdict(), verdicts(), tests);
    }

    private String statusLabel(String test, Outcome o) {
        return o.status == Status.NOT_VERIFIED && o.why.allowable() && allowed.containsKey(rule(test))
                ? "NOT VERIFIED, ALLOWED" : o.status.name().replace('_', ' ');
    }

    private String diagnosis(String test) {
        String own = diagnoses.get(test);
        if (own != null) {
            return own;
        }
        return diagnoses.entrySet().stream().filter(e -> test.startsWith(e.getKey() + " ")).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    private static List<String> rules(Map<String, Outcome> judged, java.util.function.Predicate<Outcome> which) {
        return rules(judged.entrySet().stream().filter(e -> which.test(e.getValue())).map(Map.Entry::getKey)
                .collect(Collectors.toList()));
    }

    private static List<String> rules(Collection<String> tests) {
        return tests.stream().map(t -> rule(t) == null ? t : rule(t)).distinct().sorted(BY_RULE)
                .collect(Collectors.toList());
    }

    private static long count(Map<String, Outcome> outcomes, Status status) {
        return outcomes.values().stream().filter(o -> o.status == status).count();
    }

    private static void header(StringBuilder out, String key, String value) {
        out.append(String.format("  %-19s %s%n", key, value));
    }

    private static String names(Set<? extends Enum<?>> values) {
        return values.isEmpty() ? "none" : values.stream().map(Enum::name).collect(Collectors.joining(", "));
    }
}
