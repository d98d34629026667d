package org.lockspi.tck.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.support.FileTrees;

/**
 * docs/provider-guide.md, done as its reader would: the blocks it marks {@code file:} are written into an empty
 * directory, a small provider that is not lockspi's ({@code com.example.locks}, in this module's test resources) is
 * added, and Maven builds the project against lockspi's artifacts as installed (a fresh local repository holding
 * this build's jars and poms), never its sources. The conformance goal must run the kit whatever Surefire does
 * (the guide leaves Surefire at Maven's default, which runs no JUnit 5 test, and names its class so that Surefire
 * does not pick it up), print the report and write it, and say CONFORMANT; with one defect put into the provider, it
 * must say NOT CONFORMANT and fail the build. The kit's test class path must bring nothing but lockspi's API, the
 * kit and JUnit.
 */
class ProviderGuideIT {
    /** A block the guide marks as a file of the project: the marker line, then a fenced block. */
    private static final Pattern FILE_BLOCK = Pattern.compile(
            "<!-- file: (\\S+) -->\\s*\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL);
    /** The example provider, its TckBackend, as a third party writes them. */
    private static final String EXAMPLE = "lock-tck-it/src/test/resources/example-provider";
    /** What lockspi publishes that the guide's project needs, in the order Maven would install them. */
    private static final List<String> PUBLISHED = List.of("lock-api", "lock-tck", "lock-tck-maven-plugin");

    private final Path root = Path.of(property("lockspi.it.rootDir")).toAbsolutePath().normalize();
    private final Path work = root.resolve("lock-tck-it/target/provider-guide");
    private final String version = property("lockspi.it.version");

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theGuidesProjectIsConformantAndABrokenProviderIsNot() throws IOException, InterruptedException {
        Map<String, String> files = guideFiles(Files.readString(root.resolve("docs/provider-guide.md")));
        assertTrue(files.keySet().containsAll(List.of("pom.xml",
                "src/main/resources/META-INF/services/org.lockspi.spi.LockProvider")),
                "the guide must give the pom and the registration: " + files.keySet());
        assertTrue(files.keySet().stream().anyMatch(f -> f.startsWith("src/test/java/") && f.endsWith(".java")),
                "the guide must give a conformance class: " + files.keySet());

        FileTrees.delete(work);
        Path project = work.resolve("project");
        files.forEach((file, text) -> write(project.resolve(file), text + "\n"));
        copyTree(root.resolve(EXAMPLE).resolve("src"), project.resolve("src"));
        Path repository = work.resolve("repository");
        installThisBuild(repository);
        Path settings = work.resolve("settings.xml");
        write(settings, settings(Path.of(property("lockspi.it.localRepository"))));

        String output = build(project, settings, repository, work.resolve("build.log"), 0);
        assertTrue(output.contains("==== lockspi TCK conformance report: com.example.locks."),
                "the kit printed no conformance report:\n" + tail(output));
        assertTrue(Pattern.compile("^\\s+PASSED\\s+§3\\.1 ", Pattern.MULTILINE).matcher(output).find(),
                "the report does not list rule §3.1 as passed:\n" + tail(output));
        assertTrue(Pattern.compile("^\\s+NOT VERIFIED, ALLOWED\\s+§10\\.1 ", Pattern.MULTILINE).matcher(output).find(),
                "the report does not list the guide's opt-out:\n" + tail(output));
        assertTrue(output.lines().anyMatch(l -> l.startsWith("lockspi TCK: CONFORMANT: profile CORE; ")),
                "the class's verdict is not CONFORMANT at CORE:\n" + tail(output));
        assertTrue(output.contains("lockspi TCK: CONFORMANT: 1 of 1 class conformant"),
                "the run's verdict is not CONFORMANT:\n" + tail(output));
        assertFalse(Pattern.compile("Tests run: [1-9]").matcher(output).find(),
                "Surefire ran tests: the conformance goal alone must have run the kit:\n" + tail(output));
        Path reports = project.resolve("target/lockspi-tck");
        String json = Files.readString(reports.resolve("com.example.locks.ExampleProviderConformance.json"));
        assertTrue(json.contains("\"verdict\": \"CONFORMANT\"") && json.contains("\"profile\": \"CORE\""), json);
        assertTrue(Files.readString(reports.resolve("com.example.locks.ExampleProviderConformance.txt"))
                .contains("lockspi TCK: CONFORMANT: "), "the text report is written");
        assertOnlyTheKitOnTheClassPath(reports.resolve("java.args"));

        // one defect: every holder gets the same fencing token
        Path broken = work.resolve("broken");
        copyTree(project.resolve("src"), broken.resolve("src"));
        Files.copy(project.resolve("pom.xml"), broken.resolve("pom.xml"));
        Path server = broken.resolve("src/main/java/com/example/locks/ExampleServer.java");
        String source = Files.readString(server);
        assertTrue(source.contains("++counter"), "the defect needs the token's increment in " + server);
        Files.writeString(server, source.replace("++counter", "counter"));
        String failed = build(broken, settings, repository, work.resolve("broken.log"), 1);
        assertTrue(failed.lines().anyMatch(l -> l.startsWith("lockspi TCK: NOT CONFORMANT: ") && l.contains("§13.1")),
                "the broken provider is not judged NOT CONFORMANT for §13.1:\n" + tail(failed));
        assertTrue(failed.contains("what to look at: "), "a failed rule says what to look at:\n" + tail(failed));
        assertTrue(failed.contains("BUILD FAILURE"), "the build fails:\n" + tail(failed));
    }

    /** The kit's JVM's class path holds lockspi's API, the kit, JUnit and the project's own classes, nothing else. */
    private void assertOnlyTheKitOnTheClassPath(Path javaArgs) throws IOException {
        List<String> lines = Files.readAllLines(javaArgs);
        String classpath = lines.get(lines.indexOf("-cp") + 1).replaceAll("^\"|\"$", "");
        List<String> jars = new ArrayList<>();
        long bytes = 0;
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!entry.endsWith(".jar")) {
                continue; // the project's own classes
            }
            jars.add(path.getFileName().toString());
            bytes += Files.size(path);
            String relative = entry.replace('\\', '/');
            assertTrue(Pattern.compile("/(org/lockspi/lock-(api|tck)/|org/junit/|org/opentest4j/|org/apiguardian/"
                    + "|org/jspecify/)").matcher(relative).find(), "the kit brought " + entry);
        }
        System.out.printf("the guide's provider: test class path of the conformance run: %d jars, %.1f MB: %s%n",
                jars.size(), bytes / 1e6, jars);
    }

    private String build(Path project, Path settings, Path repository, Path log, int expected)
            throws IOException, InterruptedException {
        int exit = maven(project, settings, repository, log);
        String output = Files.readString(log);
        assertEquals(expected == 0, exit == 0, "mvn verify of " + project + " ended with " + exit + "; end of " + log
                + ":\n" + tail(output));
        return output;
    }

    private static String tail(String output) {
        return output.substring(Math.max(0, output.length() - 6000));
    }

    /** @return file path to content, in the order the guide gives them */
    static Map<String, String> guideFiles(String guide) {
        Map<String, String> files = new LinkedHashMap<>();
        Matcher m = FILE_BLOCK.matcher(guide);
        while (m.find()) {
            if (files.put(m.group(1), m.group(2)) != null) {
                fail("the guide gives " + m.group(1) + " twice");
            }
        }
        return files;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                Files.createDirectories(target.getParent());
                Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Puts this build's parent pom and what lockspi publishes for a provider author into a fresh local repository,
     * as {@code mvn install} would, without touching the user's.
     */
    private void installThisBuild(Path repository) throws IOException {
        install(repository, "lockspi-parent", root.resolve("pom.xml"), null);
        for (String module : PUBLISHED) {
            Path jar = root.resolve(module + "/target/" + module + "-" + version + ".jar");
            if (!Files.isRegularFile(jar)) {
                fail(jar + " is missing: this test runs after 'package' (./mvnw verify)");
            }
            install(repository, module, root.resolve(module + "/pom.xml"), jar);
        }
    }

    private void install(Path repository, String artifact, Path pom, Path jar) throws IOException {
        Path dir = repository.resolve("org/lockspi/" + artifact + "/" + version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The user's local repository serves as a read-only remote for releases (no download of what this build
     * already fetched); Maven Central stays behind it. lockspi itself comes only from the fresh repository.
     */
    private static String settings(Path userRepository) {
        String url = userRepository.toUri().toString();
        String repository = "<id>build-cache</id><url>" + url + "</url>"
                + "<releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>"
                + "<snapshots><enabled>false</enabled></snapshots>";
        return "<settings><profiles><profile><id>build-cache</id>"
                + "<repositories><repository>" + repository + "</repository></repositories>"
                + "<pluginRepositories><pluginRepository>" + repository + "</pluginRepository></pluginRepositories>"
                + "</profile></profiles><activeProfiles><activeProfile>build-cache</activeProfile></activeProfiles>"
                + "</settings>\n";
    }

    private static int maven(Path project, Path settings, Path repository, Path log)
            throws IOException, InterruptedException {
        Path mvn = Path.of(property("lockspi.it.mavenHome"), "bin",
                System.getProperty("os.name").startsWith("Windows") ? "mvn.cmd" : "mvn");
        List<String> command = new ArrayList<>(List.of(mvn.toString(), "-B", "-ntp", "-s", settings.toString(),
                "-Dmaven.repo.local=" + repository, "verify"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MAVEN_OPTS");
        Process process = builder.start();
        if (!process.waitFor(4, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("mvn verify of " + project + " did not end within 4 minutes; see " + log);
        }
        return process.exitValue();
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank() || value.contains("${")) {
            fail("system property " + name + " is not set (the module's pom passes it): " + value);
        }
        return value;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
