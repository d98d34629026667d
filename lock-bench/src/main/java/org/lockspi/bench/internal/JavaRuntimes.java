package org.lockspi.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds an installed Java runtime of at least a given feature release, for a scenario the bench's own JVM cannot
 * run (virtual threads need 21; the build runs on 17). Looks, in this order, at the system property
 * {@value #PROPERTY} (a JDK home or its {@code bin/java}; when set, only there), this JVM, {@code JAVA_HOME}, and
 * the directories under {@value #ROOT_PROPERTY} (default {@code /usr/lib/jvm}), taking the newest there.
 */
final class JavaRuntimes {
    /** A JDK home or {@code java} executable to run the Java 21+ scenarios with. */
    static final String PROPERTY = "bench.jdk21";
    /** The directory whose sub-directories are JDK homes to scan. */
    static final String ROOT_PROPERTY = "bench.jvmRoot";

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)(?:\\.(\\d+))?", Pattern.MULTILINE);

    /** A runtime found: its {@code java} executable, feature release, and where it was found. */
    record Runtime(Path java, int feature, String foundBy) {
        String describe() {
            return "Java " + feature + " at " + java + " (" + foundBy + ")";
        }
    }

    /** The outcome: a runtime, or the reason there is none. */
    record Found(Runtime runtime, String whyNone) {
    }

    private JavaRuntimes() {
    }

    /**
     * @param minimumFeature the lowest feature release accepted, e.g. 21
     * @return the runtime to use, or the reason none fits
     */
    static Found find(int minimumFeature) {
        String configured = System.getProperty(PROPERTY, "").trim();
        if (!configured.isEmpty()) {
            Path given = Path.of(configured);
            Path home = given.endsWith(Path.of("bin", "java")) ? given.getParent().getParent() : given;
            int feature = feature(home);
            Path java = home.resolve("bin").resolve("java");
            if (feature >= minimumFeature && Files.isExecutable(java)) {
                return new Found(new Runtime(java, feature, "-D" + PROPERTY), null);
            }
            return new Found(null, "-D" + PROPERTY + "=" + configured + " is not a Java " + minimumFeature
                    + "+ runtime (release " + (feature < 0 ? "unknown" : feature) + ", java "
                    + (Files.isExecutable(java) ? "present" : "missing") + ")");
        }
        int own = java.lang.Runtime.version().feature();
        Path ownHome = Path.of(System.getProperty("java.home"));
        if (own >= minimumFeature) {
            return new Found(new Runtime(ownHome.resolve("bin").resolve("java"), own, "the bench's own JVM"), null);
        }
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            Runtime r = runtime(Path.of(javaHome), minimumFeature, "JAVA_HOME");
            if (r != null) {
                return new Found(r, null);
            }
        }
        Path root = Path.of(System.getProperty(ROOT_PROPERTY, "/usr/lib/jvm"));
        Runtime best = null;
        if (Files.isDirectory(root)) {
            List<Path> homes = new ArrayList<>();
            try (Stream<Path> dirs = Files.list(root)) {
                dirs.sorted().forEach(homes::add);
            } catch (IOException e) {
                // an unreadable directory holds no runtime we can use
            }
            for (Path home : homes) {
                Runtime r = runtime(home, minimumFeature, "newest under " + root);
                if (r != null && (best == null || r.feature() > best.feature())) {
                    best = r;
                }
            }
        }
        if (best != null) {
            return new Found(best, null);
        }
        return new Found(null, "no Java " + minimumFeature + "+ runtime: this JVM is " + own + ", JAVA_HOME="
                + javaHome + ", none under " + root + " (set -D" + PROPERTY + "=<JDK home>)");
    }

    private static Runtime runtime(Path home, int minimumFeature, String foundBy) {
        Path java = home.resolve("bin").resolve("java");
        int feature = feature(home);
        return feature >= minimumFeature && Files.isExecutable(java) ? new Runtime(java, feature, foundBy) : null;
    }

    /** @return the feature release from the home's {@code release} file ("1.8" counts as 8), or -1 */
    static int feature(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            if (!m.find()) {
                return -1;
            }
            int first = Integer.parseInt(m.group(1));
            return first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
