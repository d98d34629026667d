package org.lockspi.tck.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * directory, the kit's in-memory reference provider (with the sources of lock-spi-inmemory it is built on) is
 * added as the provider, and Maven builds the project against this build's {@code lock-api} and {@code lock-tck}
 * jars. The project's TCK must run (rule by rule, as the console shows it) and the kit's conformance report must be
 * printed.
 */
class ProviderGuideIT {
    /** A block the guide marks as a file of the project: the marker line, then a fenced block. */
    private static final Pattern FILE_BLOCK = Pattern.compile(
            "<!-- file: (\\S+) -->\\s*\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL);
    private static final String REFERENCE = "lock-tck/src/test/java/org/lockspi/tck/reference";
    /** The in-memory provider the reference provider is built on. */
    private static final String IN_MEMORY = "lock-spi-inmemory/src/main/java";

    private final Path root = Path.of(property("lockspi.it.rootDir")).toAbsolutePath().normalize();
    private final Path work = root.resolve("lock-tck-it/target/provider-guide");
    private final String version = property("lockspi.it.version");

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void theGuidesMinimalProjectRunsTheKitAndPrintsTheReport() throws IOException, InterruptedException {
        Map<String, String> files = guideFiles(Files.readString(root.resolve("docs/provider-guide.md")));
        assertTrue(files.keySet().containsAll(List.of("pom.xml",
                "src/main/resources/META-INF/services/org.lockspi.spi.LockProvider")),
                "the guide must give the pom and the registration: " + files.keySet());
        assertTrue(files.keySet().stream().anyMatch(f -> f.startsWith("src/test/java/") && f.endsWith("TckTest.java")),
                "the guide must give a TCK test class: " + files.keySet());

        FileTrees.delete(work);
        Path project = work.resolve("project");
        files.forEach((file, text) -> write(project.resolve(file), text + "\n"));
        addReferenceProvider(project);
        Path repository = work.resolve("repository");
        installThisBuild(repository);
        Path settings = work.resolve("settings.xml");
        write(settings, settings(Path.of(property("lockspi.it.localRepository"))));

        Path log = work.resolve("build.log");
        int exit = maven(project, settings, repository, log);
        String output = Files.readString(log);
        String tail = output.substring(Math.max(0, output.length() - 6000));
        assertEquals(0, exit, "mvn verify of the guide's project failed; end of " + log + ":\n" + tail);

        Matcher summary = Pattern.compile("Tests run: (\\d+), Failures: 0, Errors: 0, Skipped: (\\d+)\\s*$",
                Pattern.MULTILINE).matcher(output);
        int run = 0;
        while (summary.find()) {
            run = Integer.parseInt(summary.group(1)); // the last one is the module's total
        }
        assertTrue(run >= 80, "the guide's project ran " + run + " tests; the kit has more than 80:\n" + tail);
        assertTrue(output.contains("==== lockspi TCK conformance report: com.example.locks."),
                "the kit printed no conformance report:\n" + tail);
        assertTrue(Pattern.compile("^\\s+PASSED\\s+§3\\.1 ", Pattern.MULTILINE).matcher(output).find(),
                "the report does not list rule §3.1 as passed:\n" + tail);
        assertTrue(Pattern.compile("^\\s+NOT VERIFIED, ALLOWED\\s+§10\\.1 ", Pattern.MULTILINE).matcher(output).find(),
                "the report does not list the guide's opt-out:\n" + tail);
        assertTrue(output.lines().anyMatch(l -> l.startsWith("lockspi TCK: CONFORMANT: ")),
                "the report's verdict is not CONFORMANT:\n" + tail);
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

    /**
     * The reference provider's classes as the provider (main) and its TckBackend (test), as the guide lays out,
     * with the in-memory provider's sources they are built on (main; not its registration).
     */
    private void addReferenceProvider(Path project) throws IOException {
        Path inMemory = root.resolve(IN_MEMORY);
        try (Stream<Path> sources = Files.walk(inMemory)) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path to = project.resolve("src/main/java").resolve(inMemory.relativize(source).toString());
                Files.createDirectories(to.getParent());
                Files.copy(source, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path from = root.resolve(REFERENCE);
        try (Stream<Path> sources = Files.list(from)) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                String tree = source.getFileName().toString().equals("MemTckBackend.java") ? "test" : "main";
                Path to = project.resolve("src/" + tree + "/java/org/lockspi/tck/reference")
                        .resolve(source.getFileName());
                Files.createDirectories(to.getParent());
                Files.copy(source, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Puts this build's parent pom, lock-api and lock-tck into a fresh local repository, as {@code mvn install}
     * would, without touching the user's.
     */
    private void installThisBuild(Path repository) throws IOException {
        install(repository, "lockspi-parent", root.resolve("pom.xml"), null);
        for (String module : List.of("lock-api", "lock-tck")) {
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
        if (!process.waitFor(7, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("mvn verify of the guide's project did not end within 7 minutes; see " + log);
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
