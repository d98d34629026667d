package org.lockspi.tck.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Runs the lockspi conformance kit on the project's provider: every class extending
 * {@code org.lockspi.tck.LockProviderTck} among the compiled test classes runs whole, through the JUnit Platform, in
 * a JVM of its own with the project's test class path ({@code org.lockspi.tck.run.Conformance}); each writes its
 * report (text and JSON) to {@link #reportDirectory}; the build fails unless every class is {@code CONFORMANT}.
 *
 * <p>It does not depend on the build's Surefire: a Surefire that runs no test (Maven's default 2.12.4 with JUnit 5),
 * a TCK class whose name Surefire does not pick up, a {@code -Dtest=...} selection: none of them changes what this
 * goal runs. Name the TCK class so that Surefire leaves it alone ({@code ExampleConformance}, not
 * {@code ExampleTest}), or it runs twice.
 *
 * <p>Skipped with {@code -DskipTests}, {@code -Dmaven.test.skip} or {@code -Dlockspi.tck.skip}. Every system
 * property of the Maven command whose name starts with {@code lockspi.} (such as {@code lockspi.tck.uri}) is passed
 * on to the kit's JVM.
 */
@Mojo(name = "conformance", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.TEST,
        threadSafe = true)
public class ConformanceMojo extends AbstractMojo {
    private static final String MAIN = "org.lockspi.tck.run.Conformance";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    /** Where the compiled test classes are. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    private File testClassesDirectory;

    /** Where each class's report goes, as {@code <class>.txt} and {@code <class>.json}. */
    @Parameter(property = "lockspi.tck.reportDirectory", defaultValue = "${project.build.directory}/lockspi-tck",
            required = true)
    private File reportDirectory;

    /**
     * Only the TCK classes whose simple or qualified name matches one of these ({@code *} is a wildcard). Where the
     * POM configures none, {@code -Dlockspi.tck.includes=a,b} names them.
     *
     * <p>Not bound to that property itself: Maven gives a list element configured in the POM the value of its
     * parameter's property expression beside its children, and a value set with {@code -D} then replaces the
     * children, so a {@code -Dlockspi.tck.includes} meant for some modules of a reactor would replace every other
     * module's explicit list.
     */
    @Parameter
    private List<String> includes;

    /** Not the TCK classes whose simple or qualified name matches one of these; as {@link #includes}. */
    @Parameter
    private List<String> excludes;

    /** {@code -Dlockspi.tck.includes}, comma-separated: the includes where the POM configures none. */
    @Parameter(defaultValue = "${lockspi.tck.includes}", readonly = true)
    private String includesProperty;

    /** {@code -Dlockspi.tck.excludes}, comma-separated: the excludes where the POM configures none. */
    @Parameter(defaultValue = "${lockspi.tck.excludes}", readonly = true)
    private String excludesProperty;

    /** System properties of the kit's JVM. */
    @Parameter
    private Map<String, String> systemPropertyVariables;

    /** Options of the kit's JVM, separated by white space (no quoting). */
    @Parameter(property = "lockspi.tck.argLine")
    private String argLine;

    /** The {@code java} executable of the kit's JVM; by default that of the JVM running Maven. */
    @Parameter(property = "lockspi.tck.jvm")
    private File jvm;

    /** How long the kit's JVM may run, in seconds, before it is killed and the build fails. */
    @Parameter(property = "lockspi.tck.timeout", defaultValue = "3600")
    private int timeout;

    /** Skips the conformance run. */
    @Parameter(property = "lockspi.tck.skip", defaultValue = "false")
    private boolean skip;

    @Parameter(property = "skipTests", defaultValue = "false")
    private boolean skipTests;

    @Parameter(property = "maven.test.skip", defaultValue = "false")
    private boolean mavenTestSkip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip || skipTests || mavenTestSkip) {
            getLog().info("lockspi TCK: conformance run skipped");
            return;
        }
        if (!testClassesDirectory.isDirectory()) {
            throw new MojoFailureException("lockspi TCK: NOT CONFORMANT: no compiled test classes in "
                    + testClassesDirectory + ": conformance cannot be judged without a class extending LockProviderTck");
        }
        List<String> classpath;
        try {
            classpath = project.getTestClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("cannot resolve the test class path of " + project.getId(), e);
        }
        if (classpath.stream().noneMatch(e -> new File(e).getName().startsWith("lock-tck-")
                || e.replace('\\', '/').endsWith("/lock-tck/target/classes"))) {
            throw new MojoFailureException("lockspi TCK: org.lockspi:lock-tck is not on the test class path of "
                    + project.getId() + ": add it as a test dependency");
        }
        Path args = writeArguments(classpath);
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.add("@" + args);
        getLog().info("lockspi TCK: conformance run of " + project.getArtifactId() + " (" + command.get(0) + " @"
                + args + ")");
        int status = fork(command);
        if (status != 0) {
            throw new MojoFailureException("lockspi TCK: NOT CONFORMANT (exit " + status + "): see the conformance "
                    + "reports above and in " + reportDirectory);
        }
    }

    /** Writes the JVM's arguments to a file ({@code java @file}), so that no class path is too long to pass. */
    private Path writeArguments(List<String> classpath) throws MojoExecutionException {
        List<String> lines = new ArrayList<>();
        if (argLine != null && !argLine.isBlank()) {
            for (String option : argLine.strip().split("\\s+")) {
                lines.add(quote(option));
            }
        }
        Map<String, String> properties = new TreeMap<>();
        Properties user = session.getUserProperties();
        for (String name : user.stringPropertyNames()) {
            if (name.startsWith("lockspi.")) {
                properties.put(name, user.getProperty(name));
            }
        }
        if (systemPropertyVariables != null) {
            systemPropertyVariables.forEach((k, v) -> properties.put(k, v == null ? "" : v));
        }
        properties.forEach((k, v) -> lines.add(quote("-D" + k + "=" + v)));
        lines.add("-cp");
        lines.add(quote(String.join(File.pathSeparator, classpath)));
        lines.add(MAIN);
        lines.add("--classes");
        lines.add(quote(testClassesDirectory.getAbsolutePath()));
        lines.add("--report");
        lines.add(quote(reportDirectory.getAbsolutePath()));
        for (String include : configuredOr(includes, includesProperty)) {
            lines.add("--include");
            lines.add(quote(include));
        }
        for (String exclude : configuredOr(excludes, excludesProperty)) {
            lines.add("--exclude");
            lines.add(quote(exclude));
        }
        try {
            Files.createDirectories(reportDirectory.toPath());
            Path file = reportDirectory.toPath().resolve("java.args");
            Files.write(file, lines, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the arguments of the kit's JVM to " + reportDirectory, e);
        }
    }

    /** @return the list the POM configures, else the property's comma-separated globs, else none */
    private static List<String> configuredOr(List<String> configured, String property) {
        if (configured != null && !configured.isEmpty()) {
            return configured;
        }
        if (property == null || property.isBlank()) {
            return List.of();
        }
        return Arrays.stream(property.split(",")).map(String::strip).filter(g -> !g.isEmpty()).toList();
    }

    /** Quotes an argument for a {@code java @file}: in double quotes, with backslashes and quotes escaped. */
    private static String quote(String argument) {
        return '"' + argument.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private String javaExecutable() {
        if (jvm != null) {
            return jvm.getAbsolutePath();
        }
        boolean windows = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("win");
        return Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java").toString();
    }

    private int fork(List<String> command) throws MojoExecutionException {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(project.getBasedir()).inheritIO().start();
        } catch (IOException e) {
            throw new MojoExecutionException("cannot start the kit's JVM: " + command, e);
        }
        try {
            if (!process.waitFor(timeout, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new MojoExecutionException("lockspi TCK: the conformance run did not end within " + timeout
                        + " s (lockspi.tck.timeout) and was killed");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while the conformance run ran", e);
        }
    }
}
