package org.lockspi.tck.run;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.lockspi.tck.LockProviderTck;

/**
 * The conformance run: finds every class extending {@link LockProviderTck} among a project's compiled test classes,
 * runs each whole through the JUnit Platform (whatever the build's test runner is, or whether it runs at all),
 * writes each class's conformance report as text and JSON, and judges the run: conformant only if every class's
 * report says {@code CONFORMANT}. A run here is strict: a kit test that did not run is not verified, never a
 * selection, so a partial run cannot pass.
 *
 * <p>Run it with the project's test class path (the {@code lock-tck-maven-plugin}'s {@code conformance} goal does),
 * or by hand:
 *
 * <pre>{@code
 * java -cp <test class path> org.lockspi.tck.run.Conformance --classes target/test-classes --report target/lockspi-tck
 * }</pre>
 *
 * <p>Options: {@code --classes <dir>} (required) where the compiled test classes are; {@code --report <dir>} where
 * the reports go (default {@code target/lockspi-tck}); {@code --include <glob>} and {@code --exclude <glob>} (each
 * repeatable) narrow the classes by name, simple or qualified ({@code *} matches any run of characters): a class
 * left out is not judged, and a run that finds no class at all is not conformant. Exit status: 0 conformant, 1 not
 * conformant, 2 a usage error.
 */
public final class Conformance {
    /** The exit status of a conformant run: {@value}. */
    public static final int CONFORMANT = 0;
    /** The exit status of a run with a class that is not conformant, or with no class: {@value}. */
    public static final int NOT_CONFORMANT = 1;
    /** The exit status of a usage error: {@value}. */
    public static final int USAGE = 2;

    private static final String USAGE_TEXT = "usage: Conformance --classes <dir> [--report <dir>] "
            + "[--include <glob>]... [--exclude <glob>]...";
    private static final Pattern VERDICT = Pattern.compile("\"verdict\": \"([A-Z ]+)\"");

    private Conformance() {
    }

    /**
     * Runs the conformance kit as the command line says and exits with its status.
     *
     * @param args the options above
     */
    public static void main(String[] args) {
        int status;
        try {
            status = run(Options.parse(args), System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("lockspi TCK: " + e.getMessage() + "\n" + USAGE_TEXT);
            status = USAGE;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs the conformance kit.
     *
     * @param options what to run and where to write
     * @param out     where the summary goes (each class's report goes to standard output as it ends)
     * @return {@link #CONFORMANT} or {@link #NOT_CONFORMANT}
     * @throws UncheckedIOException if the classes cannot be read or the reports cannot be written
     */
    static int run(Options options, PrintStream out) {
        List<Class<?>> classes = discover(options);
        if (classes.isEmpty()) {
            out.println("lockspi TCK: NOT CONFORMANT: no class extending " + LockProviderTck.class.getName()
                    + " in " + options.classes + options.filterText() + ": conformance cannot be judged without one");
            return NOT_CONFORMANT;
        }
        try {
            Files.createDirectories(options.report);
            for (Class<?> tckClass : classes) {
                Files.deleteIfExists(options.report.resolve(tckClass.getName() + ".json"));
                Files.deleteIfExists(options.report.resolve(tckClass.getName() + ".txt"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the report directory " + options.report, e);
        }
        Map<String, String> classFailures = launch(classes, options.report);
        List<String> summary = new ArrayList<>();
        int conformant = 0;
        for (Class<?> tckClass : classes) {
            Path json = options.report.resolve(tckClass.getName() + ".json");
            String verdict = verdict(json);
            if (verdict.equals("CONFORMANT")) {
                conformant++;
            }
            String why = verdict.equals("(no report)") ? "  -- the kit wrote no report: "
                    + classFailures.getOrDefault(tckClass.getName(), "the class did not run") : "";
            summary.add(String.format("  %-15s %s%s", verdict, tckClass.getName(), why));
        }
        out.println("==== lockspi TCK conformance run: " + classes.size() + (classes.size() == 1 ? " class" : " classes")
                + ", reports in " + options.report + " ====");
        summary.forEach(out::println);
        boolean all = conformant == classes.size();
        out.println((all ? "lockspi TCK: CONFORMANT: " : "lockspi TCK: NOT CONFORMANT: ") + conformant + " of "
                + classes.size() + (classes.size() == 1 ? " class" : " classes") + " conformant");
        return all ? CONFORMANT : NOT_CONFORMANT;
    }

    /** @return the classes extending LockProviderTck under the classes directory that the filters let through */
    static List<Class<?>> discover(Options options) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(options.classes)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList())) {
                String name = options.classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(),
                        ".").replaceFirst("\\.class$", "");
                if (name.endsWith("module-info") || name.endsWith("package-info") || !options.selects(name)) {
                    continue;
                }
                Class<?> type;
                try {
                    type = Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue; // not loadable with the test class path: not a class the kit can run
                }
                if (LockProviderTck.class.isAssignableFrom(type) && !Modifier.isAbstract(type.getModifiers())
                        && (type.getEnclosingClass() == null || Modifier.isStatic(type.getModifiers()))) {
                    found.add(type);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the test classes in " + options.classes, e);
        }
        return found;
    }

    /** Runs the classes strictly, writing reports; @return class name to the failure of a class that did not run */
    private static Map<String, String> launch(List<Class<?>> classes, Path report) {
        Map<String, String> previous = new LinkedHashMap<>();
        previous.put("lockspi.tck.strict", System.setProperty("lockspi.tck.strict", "true"));
        previous.put("lockspi.tck.reportDir", System.setProperty("lockspi.tck.reportDir",
                report.toAbsolutePath().toString()));
        Map<String, String> failures = new LinkedHashMap<>();
        try {
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(classes.stream().map(c -> selectClass(c)).collect(Collectors.toList())).build();
            Launcher launcher = LauncherFactory.create();
            launcher.execute(request, new TestExecutionListener() {
                @Override
                public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                    if (result.getStatus() == TestExecutionResult.Status.FAILED && !test.isTest()) {
                        test.getSource().ifPresent(source -> failures.put(className(source.toString()),
                                result.getThrowable().map(String::valueOf).orElse("(no cause)")));
                    }
                }
            });
        } finally {
            previous.forEach((key, value) -> {
                if (value == null) {
                    System.clearProperty(key);
                } else {
                    System.setProperty(key, value);
                }
            });
        }
        return failures;
    }

    private static String className(String source) {
        Matcher m = Pattern.compile("className = '([^']+)'").matcher(source);
        return m.find() ? m.group(1) : source;
    }

    private static String verdict(Path json) {
        if (!Files.isRegularFile(json)) {
            return "(no report)";
        }
        try {
            Matcher m = VERDICT.matcher(Files.readString(json, StandardCharsets.UTF_8));
            return m.find() ? m.group(1) : "(no verdict)";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + json, e);
        }
    }

    /** The command line, checked. */
    static final class Options {
        final Path classes;
        final Path report;
        final List<Pattern> includes;
        final List<Pattern> excludes;
        private final List<String> includeText;
        private final List<String> excludeText;

        private Options(Path classes, Path report, List<String> includes, List<String> excludes) {
            this.classes = classes;
            this.report = report;
            this.includeText = includes;
            this.excludeText = excludes;
            this.includes = includes.stream().map(Options::glob).collect(Collectors.toList());
            this.excludes = excludes.stream().map(Options::glob).collect(Collectors.toList());
        }

        /**
         * @param args the command line
         * @return the options
         * @throws IllegalArgumentException if an option is unknown, lacks its value, or the classes are missing
         */
        static Options parse(String... args) {
            Path classes = null;
            Path report = Path.of("target", "lockspi-tck");
            List<String> includes = new ArrayList<>();
            List<String> excludes = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option without a value: " + option);
                }
                String value = args[++i];
                switch (option) {
                    case "--classes":
                        classes = Path.of(value);
                        break;
                    case "--report":
                        report = Path.of(value);
                        break;
                    case "--include":
                        includes.addAll(globs(value));
                        break;
                    case "--exclude":
                        excludes.addAll(globs(value));
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option: " + option);
                }
            }
            if (classes == null) {
                throw new IllegalArgumentException("--classes is required");
            }
            if (!Files.isDirectory(classes)) {
                throw new IllegalArgumentException("--classes is not a directory: " + classes);
            }
            return new Options(classes, report, includes, excludes);
        }

        private static List<String> globs(String value) {
            return Stream.of(value.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                    .collect(Collectors.toList());
        }

        private static Pattern glob(String glob) {
            return Pattern.compile(Stream.of(Objects.requireNonNull(glob).split("\\*", -1)).map(Pattern::quote)
                    .collect(Collectors.joining(".*")));
        }

        boolean selects(String className) {
            String simple = className.substring(className.lastIndexOf('.') + 1);
            boolean included = includes.isEmpty() || includes.stream()
                    .anyMatch(p -> p.matcher(className).matches() || p.matcher(simple).matches());
            boolean excluded = excludes.stream()
                    .anyMatch(p -> p.matcher(className).matches() || p.matcher(simple).matches());
            return included && !excluded;
        }

        String filterText() {
            return (includeText.isEmpty() ? "" : " including " + includeText)
                    + (excludeText.isEmpty() ? "" : " excluding " + excludeText);
        }
    }
}
